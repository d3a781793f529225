import { TABLE_MAX_COLUMNS } from '@studychat/contracts/web';
import { useDraft } from './draft-context';
import { fieldId, getAt, listAt, movedItem, withoutItem, type Path } from './draft-path';
import { FieldIssues } from './FieldIssues';
import { TextInput } from './fields';
import { ListEditor, SMALL_BUTTON } from './ListEditor';

const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : [];

/**
 * A block's table: caption, column headings, rows of cells. Rows are added, removed and moved like any list;
 * a column is added, removed or moved with its heading and its cell in every row, in one change. Every input
 * is named for its place ("Row 2, column 3 of the table in mmr section 1 block 2"), and its id is its path,
 * so the server's issues (`…blocks.1.table.rows.1.2`) land on it.
 */
export function TableForm({ path, place }: { path: Path; place: string }) {
  const { draft, edit, issuesAt, readOnly } = useDraft();
  const table = getAt(draft, path);
  const columns = texts(getAt(table, ['columns']));
  const rows = listAt(table, ['rows']).map(texts);
  const of = `of the table in ${place}`;
  const id = fieldId(path);
  const issues = issuesAt(path);

  /** Writes columns and every row at once (a column change touches each row). */
  const reshape = (change: <T>(list: T[]) => T[], fill?: string) =>
    edit(path, {
      ...(typeof table === 'object' && table !== null ? table : {}),
      columns: change(fill === undefined ? columns : [...columns, fill]),
      rows: rows.map((row) => change(fill === undefined ? row : [...row, fill])),
    });

  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
      className="space-y-3 rounded-lg border border-slate-200 p-3"
    >
      <legend className="px-1 text-sm font-semibold text-slate-800">Table in {place}</legend>
      <FieldIssues id={`${id}-issues`} issues={issues} />
      <TextInput path={[...path, 'caption']} label="Caption" hiddenLabel={` ${of}`} />
      <fieldset
        id={fieldId([...path, 'columns'])}
        tabIndex={-1}
        className="space-y-3 rounded-lg border border-slate-200 p-3"
      >
        <legend className="px-1 text-sm font-semibold text-slate-800">
          Columns<span className="sr-only"> {of}</span>
        </legend>
        <FieldIssues id={`${fieldId([...path, 'columns'])}-issues`} issues={issuesAt([...path, 'columns'])} />
        {columns.map((_, c) => (
          <div key={c} className="space-y-2 border-l-2 border-slate-200 pl-3">
            <TextInput path={[...path, 'columns', c]} label={`Heading of column ${c + 1}`} hiddenLabel={` ${of}`} />
            {!readOnly && (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  disabled={c === 0}
                  aria-label={`Move column ${c + 1} left ${of}`}
                  onClick={() => reshape((list) => movedItem(list, c, c - 1))}
                >
                  Left
                </button>
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  disabled={c === columns.length - 1}
                  aria-label={`Move column ${c + 1} right ${of}`}
                  onClick={() => reshape((list) => movedItem(list, c, c + 1))}
                >
                  Right
                </button>
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  disabled={columns.length === 1}
                  aria-label={`Remove column ${c + 1} ${of}`}
                  onClick={() => reshape((list) => withoutItem(list, c))}
                >
                  Remove
                </button>
              </div>
            )}
          </div>
        ))}
        {!readOnly && (
          <button
            type="button"
            className={SMALL_BUTTON}
            disabled={columns.length >= TABLE_MAX_COLUMNS}
            aria-label={`Add column ${of}`}
            onClick={() => reshape((list) => list, '')}
          >
            Add column
          </button>
        )}
      </fieldset>
      <ListEditor
        path={[...path, 'rows']}
        legend={`Rows ${of}`}
        itemName="row"
        itemSuffix={` ${of}`}
        newItem={() => columns.map(() => '')}
      >
        {(r) => (
          <div className="grid gap-2 sm:grid-cols-2">
            {columns.map((_, c) => (
              <TextInput
                key={c}
                path={[...path, 'rows', r, c]}
                label={`Row ${r + 1}, column ${c + 1}`}
                hiddenLabel={` ${of}`}
              />
            ))}
          </div>
        )}
      </ListEditor>
      {!readOnly && (
        <button
          type="button"
          className={SMALL_BUTTON}
          aria-label={`Remove the table in ${place}`}
          onClick={() => edit(path, undefined)}
        >
          Remove table
        </button>
      )}
    </fieldset>
  );
}
