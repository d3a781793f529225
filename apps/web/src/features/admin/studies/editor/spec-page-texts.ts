// The spec's wording of the static-intro and completion pages, which the pages show when a study has no texts
// of its own (docs/decisions/0034), as the editor's placeholders (0062). A copy: the pages keep theirs inline,
// since a module shared with the admin area would be one more chunk in their initial JavaScript, which is within
// bytes of its budget. spec-page-texts.test.tsx renders both pages and checks the copy is what they show.

export const SPEC_STATIC_INTRO = {
  title: 'Before you begin',
  /**
   * The page's paragraphs as a study would write them (`{sections}` and `{topic}` filled in); the page itself
   * renders the first with the topic in bold and "four" spelled out.
   */
  paragraphs: [
    'Next, you will read {sections} short sections of information about {topic}.',
    'Each section stays on screen for a short minimum time. When the time is up and you have read to the end of the section, you can move on to the next one.',
    'After the last section, you will have a short conversation with an AI assistant.',
  ],
};

export const SPEC_COMPLETION = {
  thanks: 'Thank you for taking part in this study.',
  instructions:
    'Please submit this code on Prolific so that your participation can be confirmed and paid. The link opens Prolific in a new tab with your code filled in.',
};
