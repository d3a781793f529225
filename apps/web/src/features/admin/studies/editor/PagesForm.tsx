import { useDraft } from './draft-context';
import { getAt } from './draft-path';
import { TextInput } from './fields';
import { SMALL_BUTTON, TextList } from './ListEditor';
import { SPEC_COMPLETION, SPEC_STATIC_INTRO } from './spec-page-texts';

const INTRO = ['pages', 'staticIntro'] as const;
const COMPLETION = ['pages', 'completion'] as const;

/**
 * The static-intro and completion pages' texts (docs/decisions/0034). Each page is the spec's wording (shown as
 * placeholders) until the study writes its own; a page's own texts need all their parts (the server says which
 * is missing). Emptied, a text is "not set" again, and so is the page once nothing of it is left.
 */
export function PagesForm() {
  const { draft, edit, readOnly } = useDraft();
  const paragraphs = getAt(draft, [...INTRO, 'paragraphs']);
  const title = getAt(draft, [...INTRO, 'title']);
  return (
    <>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Static-intro page (before the sections)</legend>
        <TextInput
          path={[...INTRO, 'title']}
          label="Title of the static-intro page"
          placeholder={SPEC_STATIC_INTRO.title}
          optional
        />
        {paragraphs !== undefined ? (
          <>
            <p className="text-sm text-slate-600">
              In a paragraph, {'{topic}'} becomes the condition’s topic and {'{sections}'} its number of sections.
            </p>
            <TextList
              path={[...INTRO, 'paragraphs']}
              legend="Paragraphs of the static-intro page"
              itemName="paragraph"
            />
          </>
        ) : (
          <p className="text-sm text-slate-600">
            The page’s paragraphs are the spec’s: “{SPEC_STATIC_INTRO.paragraphs.join(' ')}”
          </p>
        )}
        {!readOnly && (
          <div className="flex flex-wrap gap-2">
            {paragraphs === undefined && (
              <button
                type="button"
                className={SMALL_BUTTON}
                onClick={() =>
                  edit(INTRO, {
                    title: typeof title === 'string' ? title : SPEC_STATIC_INTRO.title,
                    paragraphs: [...SPEC_STATIC_INTRO.paragraphs],
                  })
                }
              >
                Write the page’s own paragraphs
              </button>
            )}
            {getAt(draft, INTRO) !== undefined && (
              <button type="button" className={SMALL_BUTTON} onClick={() => edit(INTRO, undefined)}>
                Use the spec’s static-intro page
              </button>
            )}
          </div>
        )}
      </fieldset>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Completion page</legend>
        <TextInput
          path={[...COMPLETION, 'thanks']}
          label="Thanks above the completion code"
          placeholder={SPEC_COMPLETION.thanks}
          rows={2}
          optional
        />
        <TextInput
          path={[...COMPLETION, 'instructions']}
          label="What to do with the completion code"
          placeholder={SPEC_COMPLETION.instructions}
          rows={3}
          optional
        />
      </fieldset>
    </>
  );
}
