import { Button } from '../../../components/Button';

/** Shown before a thread exists. */
export function StartConversation({ onStart, starting }: { onStart: () => void; starting: boolean }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto px-4 py-8 text-center">
      <h2 className="text-xl font-semibold text-slate-900">Ready when you are</h2>
      <p className="mt-3 max-w-md text-base text-slate-700">
        Next, you will have a short conversation with an AI assistant. Ask questions or share your thoughts in your own
        words. Once you have had at least 3 exchanges and the engagement bar is full, you can proceed to the last step.
      </p>
      <Button className="mt-6 min-h-12 px-8 text-lg" onClick={onStart} disabled={starting}>
        {starting ? 'Starting…' : 'Start Conversation'}
      </Button>
    </div>
  );
}
