import type { StudyDefinition } from '@studychat/contracts/web';

const CONDITIONS = ['mmr', 'control'] as const;

/**
 * The most common edits as form fields: the study's title and each section's title and minimum seconds.
 * They change the JSON below (which stays the whole definition); the server checks it on save.
 */
export function StudyTimersForm({
  definition,
  onChange,
}: {
  definition: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
}) {
  const study = definition as unknown as Partial<StudyDefinition>;
  const conditions = study.conditions;
  if (!conditions || typeof study.title !== 'string') return null;
  const change = (edit: (draft: StudyDefinition) => void) => {
    const draft = structuredClone(definition) as unknown as StudyDefinition;
    edit(draft);
    onChange(draft as unknown as Record<string, unknown>);
  };
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Common edits</legend>
      <label className="block text-sm font-medium text-slate-800">
        Study title
        <input
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1"
          value={study.title}
          onChange={(e) => change((d) => void (d.title = e.target.value))}
        />
      </label>
      {CONDITIONS.map((condition) => {
        const sections = conditions[condition]?.sections;
        if (!Array.isArray(sections)) return null;
        return (
          <div key={condition}>
            <h3 className="text-sm font-semibold text-slate-800">Sections of the {condition} condition</h3>
            <ul className="mt-1 space-y-1">
              {sections.map((section, index) => (
                <li key={index} className="flex flex-wrap items-end gap-2">
                  <label className="text-sm text-slate-700">
                    Title of {condition} section {index + 1}
                    <input
                      className="ml-1 rounded border border-slate-300 px-2 py-1"
                      value={section.title}
                      onChange={(e) =>
                        change((d) => {
                          const target = d.conditions[condition].sections[index];
                          if (target) target.title = e.target.value;
                        })
                      }
                    />
                  </label>
                  <label className="text-sm text-slate-700">
                    Minimum seconds of {condition} section {index + 1}
                    <input
                      type="number"
                      min={1}
                      className="ml-1 w-20 rounded border border-slate-300 px-2 py-1"
                      value={section.minSeconds}
                      onChange={(e) =>
                        change((d) => {
                          const target = d.conditions[condition].sections[index];
                          if (target) target.minSeconds = Number(e.target.value);
                        })
                      }
                    />
                  </label>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </fieldset>
  );
}
