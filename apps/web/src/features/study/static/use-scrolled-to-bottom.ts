import { useCallback, useEffect, useState, type RefObject } from 'react';
import { reachedBottom, RESIZE_DEBOUNCE_MS, SCROLL_CHECK_DELAY_MS } from './static-progress';

/**
 * Whether the end of `ref` has been in view since `resetKey` last changed: checked 100 ms after
 * the section appears, on every scroll, and on resize (debounced 150 ms). Once reached it stays true.
 */
export function useScrolledToBottom(ref: RefObject<HTMLElement | null>, resetKey: unknown): boolean {
  const [reached, setReached] = useState<{ key: unknown; value: boolean }>({ key: resetKey, value: false });
  const value = reached.key === resetKey && reached.value;

  const check = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    if (reachedBottom(el.getBoundingClientRect().bottom, window.innerHeight)) {
      setReached((prev) => (prev.key === resetKey && prev.value ? prev : { key: resetKey, value: true }));
    }
  }, [ref, resetKey]);

  useEffect(() => {
    const initial = window.setTimeout(check, SCROLL_CHECK_DELAY_MS);
    let resizeTimer: number | undefined;
    const onResize = () => {
      window.clearTimeout(resizeTimer);
      resizeTimer = window.setTimeout(check, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      window.clearTimeout(initial);
      window.clearTimeout(resizeTimer);
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', onResize);
    };
  }, [check]);

  return value;
}
