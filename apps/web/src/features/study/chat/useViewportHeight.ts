import { useEffect, useState } from 'react';

/**
 * The visible height while a phone keyboard covers part of the page (visualViewport), else null so
 * CSS (100dvh) decides. Keeps the message box above the keyboard on browsers whose dvh ignores it.
 */
export function useViewportHeight(): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    const vv = window.visualViewport;
    if (!vv) return;
    const update = () => {
      // A zoomed-in page also has a smaller visual viewport; that is not the keyboard.
      const keyboardOpen = vv.scale <= 1.01 && vv.height < window.innerHeight - 1;
      setHeight(keyboardOpen ? Math.round(vv.height) : null);
      // The chat now fits the visible area exactly: show it from its top, input at the bottom.
      if (keyboardOpen) window.scrollTo(0, 0);
    };
    vv.addEventListener('resize', update);
    return () => vv.removeEventListener('resize', update);
  }, []);
  return height;
}
