import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface NativeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/**
 * A modal dialog on the browser's own `<dialog>` (focus kept inside, Escape closes, the page behind is
 * inert) for participant pages, where Radix's ~13 KB would break the initial-JavaScript budget.
 * Admin pages use `Modal`.
 */
export function NativeDialog({ open, onOpenChange, title, description, children }: NativeDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape and form-method-dialog closes arrive here; keep React's state in step.
      onClose={() => onOpenChange(false)}
      onCancel={() => onOpenChange(false)}
      onClick={(event) => {
        if (event.target === ref.current) onOpenChange(false);
      }}
      className="m-auto w-[calc(100%-1.5rem)] max-w-md rounded-xl bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 sm:p-6"
    >
      {open && (
        <>
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-2 text-slate-700">
              {description}
            </p>
          )}
          <div className="mt-4">{children}</div>
        </>
      )}
    </dialog>
  );
}
