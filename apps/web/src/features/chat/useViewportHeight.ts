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
    const update = () => setHeight(vv.height < window.innerHeight - 1 ? Math.round(vv.height) : null);
    vv.addEventListener('resize', update);
    return () => vv.removeEventListener('resize', update);
  }, []);
  return height;
}
