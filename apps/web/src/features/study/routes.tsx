import { Fragment } from 'react';

/** Public landing and participant study routes (spec section 2). */
export function studyRoutes() {
  return <Fragment />;
}
