/**
 * Someone else saved this design since it was opened (412). The person decides: load their version
 * (ours is dropped) or overwrite with ours (saved on top of the newest revision). Modal, focus
 * starts on the safe choice, Escape does nothing: a choice is required.
 */
import { useEffect, useRef } from 'preact/hooks';

export function ConflictDialog({ onChoose }: { onChoose(choice: 'theirs' | 'mine'): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="conflict-title"
      aria-describedby="conflict-text"
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="conflict-title">This design was changed elsewhere</h2>
      <p id="conflict-text">
        A newer version was saved in another window or by someone else. Your latest changes are kept here
        until you choose.
      </p>
      <div class="dialog-actions">
        <button type="button" onClick={() => onChoose('theirs')}>
          Load their version
        </button>
        <button type="button" class="primary" onClick={() => onChoose('mine')}>
          Overwrite with mine
        </button>
      </div>
    </dialog>
  );
}
