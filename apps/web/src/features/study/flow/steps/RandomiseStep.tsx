import { useEffect, useRef } from 'react';
import { Spinner } from '../../../../components/Spinner';

/** The server assigns the participant's condition; the page asks once on arrival and shows a short wait. */
export function RandomiseStep({ onArrive }: { onArrive: () => void }) {
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    onArrive();
  }, [onArrive]);
  return <Spinner label="Preparing the next part of the study..." />;
}
