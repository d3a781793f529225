import type { ReactNode } from 'react';
import { useDraft } from './draft-context';
import { getAt, type Path } from './draft-path';
import { TextInput } from './fields';
import { ListEditor, SMALL_BUTTON, TextList } from './ListEditor';
import { TableForm } from './TableForm';

/** A new table: two columns, one row, for the researcher to fill in. */
const newTable = () => ({ caption: '', columns: ['', ''], rows: [['', '']] });

/**
 * Content blocks (consent, a section's text): each block's heading, paragraphs and bullets, or its Markdown
 * (a Markdown block has nothing else, docs/decisions/0052), and its table (e.g. the risk panel). `place` names
 * the list in the table's field labels ("mmr section 1" gives "… of the table in mmr section 1 block 2").
 */
export function BlocksForm({
  path,
  legend,
  place,
  of,
  pipe,
}: {
  path: Path;
  legend: string;
  place: string;
  /** Ends each field's name for screen readers (" of step 3"), when several lists of blocks share a page. */
  of?: string;
  /** A control under each text that may pipe answers (the builder's Insert answer), given its path and name. */
  pipe?: (path: Path, label: string) => ReactNode;
}) {
  const { draft, edit, readOnly } = useDraft();
  const suffix = of ?? '';
  return (
    <ListEditor
      path={path}
      legend={legend}
      itemName="block"
      itemSuffix={of}
      newItem={() => ({ paragraphs: [''] })}
      more={[{ label: 'Add Markdown block', item: () => ({ markdown: '' }) }]}
    >
      {(index) =>
        typeof getAt(draft, [...path, index, 'markdown']) === 'string' ? (
          <div>
            <TextInput
              path={[...path, index, 'markdown']}
              label={`Markdown of block ${index + 1}`}
              hiddenLabel={of}
              hint="Headings, lists, emphasis, tables and http(s) links; no HTML or images."
              rows={8}
            />
            {pipe?.([...path, index, 'markdown'], `Markdown of block ${index + 1}${suffix}`)}
          </div>
        ) : (
          <>
            <div>
              <TextInput
                path={[...path, index, 'heading']}
                label={`Heading of block ${index + 1} (optional)`}
                hiddenLabel={of}
                optional
              />
              {pipe?.([...path, index, 'heading'], `Heading of block ${index + 1}${suffix}`)}
            </div>
            <TextList
              path={[...path, index, 'paragraphs']}
              legend={`Paragraphs of block ${index + 1}`}
              itemName="paragraph"
              hiddenLabel={of === undefined ? undefined : ` of block ${index + 1}${of}`}
              after={pipe}
            />
            <TextList
              path={[...path, index, 'bullets']}
              legend={`Bullets of block ${index + 1}`}
              itemName="bullet"
              hiddenLabel={of === undefined ? undefined : ` of block ${index + 1}${of}`}
              after={pipe}
            />
            {getAt(draft, [...path, index, 'table']) !== undefined ? (
              <TableForm path={[...path, index, 'table']} place={`${place} block ${index + 1}`} />
            ) : (
              !readOnly && (
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  aria-label={`Add a table to ${place} block ${index + 1}`}
                  onClick={() => edit([...path, index, 'table'], newTable())}
                >
                  Add table
                </button>
              )
            )}
          </>
        )
      }
    </ListEditor>
  );
}
