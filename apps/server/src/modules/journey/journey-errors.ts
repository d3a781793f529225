/** The participant has not joined the experiment (404): every participant route says so alike. */
export const NO_PARTICIPATION =
  'No participation found for this experiment. Please start again from the Prolific link.';
