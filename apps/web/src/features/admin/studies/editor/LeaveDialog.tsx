import { Button } from '../../../../components/Button';
import { Modal } from '../../../../components/Modal';
import { DISCARD_QUESTION, type UnsavedGuard } from './use-unsaved-guard';

/** Asks before leaving a study version with unsaved changes; Stay (focused first) keeps the draft. */
export function LeaveDialog({ guard }: { guard: UnsavedGuard }) {
  return (
    <Modal
      open={guard.asking}
      onOpenChange={(open) => !open && guard.stay()}
      title={DISCARD_QUESTION}
      description="The changes made since the last save will be lost if you leave."
    >
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={guard.stay}>
          Stay
        </Button>
        <Button variant="danger" onClick={guard.leave}>
          Leave
        </Button>
      </div>
    </Modal>
  );
}
