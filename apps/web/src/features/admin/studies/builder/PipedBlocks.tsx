import { BlocksForm } from '../editor/BlocksForm';
import type { Path } from '../editor/draft-path';
import { PipeMenu } from './PipeMenu';

/**
 * A step's content blocks with an "Insert answer" menu under each text that may pipe answers (Markdown, heading,
 * paragraphs, bullets): the flow pipes every text of a block (flow/checks.ts `stepTexts`).
 */
export function PipedBlocks({ path, legend, place, of }: { path: Path; legend: string; place: string; of: string }) {
  return (
    <BlocksForm
      path={path}
      legend={legend}
      place={place}
      of={of}
      pipe={(text, label) => <PipeMenu path={text} label={label} />}
    />
  );
}
