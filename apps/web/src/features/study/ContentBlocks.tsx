import type { ContentBlock } from '@studychat/contracts/web';
// Loaded only when a block is Markdown (docs/decisions/0052); the page holds the Suspense boundary.
import { StudyMarkdown } from './study-pages';

/**
 * Renders study text blocks (headings, paragraphs, bullet lists, tables, or Markdown) in a readable style.
 * A Markdown block suspends until its renderer has loaded.
 */
export function ContentBlocks({ blocks, headingLevel = 2 }: { blocks: ContentBlock[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="space-y-5 text-base leading-relaxed text-slate-800 sm:text-lg">
      {blocks.map((block, index) => (
        <section key={index} className="space-y-3">
          {block.markdown && <StudyMarkdown text={block.markdown} />}
          {block.heading && (
            <Heading className="text-lg font-semibold text-slate-900 sm:text-xl">{block.heading}</Heading>
          )}
          {block.paragraphs?.map((text, i) => (
            <p key={i}>{text}</p>
          ))}
          {block.bullets && (
            <ul className="list-disc space-y-1.5 pl-6">
              {block.bullets.map((text, i) => (
                <li key={i}>{text}</li>
              ))}
            </ul>
          )}
          {block.table && (
            <table className="w-full border-collapse overflow-hidden rounded-lg text-left text-sm sm:text-base">
              <caption className="mb-2 text-left font-medium text-slate-700">{block.table.caption}</caption>
              <thead>
                <tr className="bg-slate-100">
                  {block.table.columns.map((column, i) => (
                    <th
                      key={i}
                      scope="col"
                      className={`border border-slate-200 px-3 py-2 font-semibold ${i > 0 ? 'text-right' : ''}`}
                    >
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {block.table.rows.map(([label, ...values], r) => (
                  <tr key={r} className="even:bg-slate-50">
                    <th scope="row" className="border border-slate-200 px-3 py-2 font-normal">
                      {label}
                    </th>
                    {values.map((value, i) => (
                      <td
                        key={i}
                        className="border border-slate-200 px-3 py-2 text-right font-semibold whitespace-nowrap tabular-nums"
                      >
                        {value}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </div>
  );
}
