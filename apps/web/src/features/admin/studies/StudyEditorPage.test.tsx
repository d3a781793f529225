import {
  FLOW_TEMPLATES,
  inBuiltInShape,
  type BuiltInStudyDefinition,
  type StudyDefinition,
} from '@studychat/contracts/web';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BrowserRouter, Link, Route, Routes } from '../../../lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage, signInAs } from '../test-utils';
import { draftVersion, VERSION_ID } from './study-fixture';
import { StudyEditorPage } from './StudyEditorPage';

const url = `/api/admin/study-versions/${VERSION_ID}`;

const show = (as: 'admin' | 'analyst' = 'admin') =>
  renderPage(<StudyEditorPage />, { path: `/admin/studies/${VERSION_ID}`, route: '/admin/studies/:id', as });

/** The definition the JSON view holds now. */
const jsonView = () =>
  JSON.parse((screen.getByLabelText('Study definition (JSON)') as HTMLTextAreaElement).value) as BuiltInStudyDefinition;

const open = async (user: ReturnType<typeof userEvent.setup>, part: string) => {
  await user.click(await screen.findByText(part, { selector: 'summary span, summary' }));
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Every keystroke rewrites the whole definition (about 40 KB of JSON): slow in jsdom, not in a browser.
describe('StudyEditorPage', { timeout: 30_000 }, () => {
  it('edits a pre-study question through the form: wording, options, type, order, a new one; the JSON follows and is saved', async () => {
    const calls = mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      [`PUT ${url}`]: () => json(200, draftVersion()),
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Pre-study survey');
    const wording = screen.getByLabelText('Wording of question 1');
    await user.clear(wording);
    await user.type(wording, 'Your age?');
    expect(jsonView().pre.questions[0]?.wording).toBe('Your age?');

    const options = screen.getByRole('group', { name: 'Options of question 1' });
    await user.click(within(options).getByRole('button', { name: 'Add option' }));
    const count = jsonView().pre.questions[0]?.options?.length ?? 0;
    await user.type(screen.getByLabelText(`Label of option ${count} of question 1`), 'Older');
    await user.type(screen.getByLabelText(`Value of option ${count} of question 1`), 'older');
    expect(jsonView().pre.questions[0]?.options?.at(-1)).toEqual({ value: 'older', label: 'Older' });

    await user.selectOptions(screen.getByLabelText('Type of question 2'), 'scale');
    await user.type(screen.getByLabelText('Label at 1 of question 2'), 'Not at all');
    expect(jsonView().pre.questions[1]).toMatchObject({
      type: 'scale',
      labels: { min: 'Not at all', mid: '', max: '' },
    });
    expect(jsonView().pre.questions[1]).not.toHaveProperty('options');

    await user.click(screen.getByRole('button', { name: 'Move question 3 up' }));
    expect(jsonView().pre.questions.map((q) => q.key)).toEqual(['age', 'political_leaning', 'sex']);
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    expect(jsonView().pre.questions[3]).toMatchObject({ key: 'question_4', type: 'choice', required: true });
    await user.click(screen.getByLabelText('Question 4 must be answered'));
    expect(jsonView().pre.questions[3]?.required).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Remove question 4' }));
    expect(jsonView().pre.questions).toHaveLength(3);

    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save version' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'PUT')?.body as { definition: StudyDefinition };
    expect(sent.definition.pre.questions[0]?.wording).toBe('Your age?');
    expect(sent.definition.pre.questions[2]?.type).toBe('scale');
  });

  it('keeps what a question had under its other type while the editor is open: switching back restores it', async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Pre-study survey');
    const options = jsonView().pre.questions[0]?.options;
    expect(options?.length).toBeGreaterThan(1);
    await user.selectOptions(screen.getByLabelText('Type of question 1'), 'scale');
    expect(jsonView().pre.questions[0]).not.toHaveProperty('options');
    await user.type(screen.getByLabelText('Label at 7 of question 1'), 'All');
    // A mis-click undone: the options typed before are back, and the labels are kept in turn.
    await user.selectOptions(screen.getByLabelText('Type of question 1'), 'choice');
    expect(jsonView().pre.questions[0]?.options).toEqual(options);
    expect(jsonView().pre.questions[0]).not.toHaveProperty('labels');
    await user.selectOptions(screen.getByLabelText('Type of question 1'), 'scale');
    expect(jsonView().pre.questions[0]?.labels).toEqual({ min: '', mid: '', max: 'All' });
    // Moved, a question keeps its own (the stash follows its answer key, not its place).
    await user.selectOptions(screen.getByLabelText('Type of question 1'), 'choice');
    await user.click(screen.getByRole('button', { name: 'Move question 1 down' }));
    await user.selectOptions(screen.getByLabelText('Type of question 2'), 'scale');
    expect(jsonView().pre.questions[1]?.labels).toEqual({ min: '', mid: '', max: 'All' });
  });

  it("edits a condition's chat through the form: prompt, greetings, model settings, completion rule", async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Chat: mmr condition');
    const prompt = screen.getByLabelText('System prompt (mmr condition)');
    await user.clear(prompt);
    await user.type(prompt, 'Be brief.');
    await user.type(screen.getByLabelText('Fallback greeting (mmr condition)'), ' Welcome!');
    await user.type(screen.getByLabelText('Model (mmr condition)'), 'claude-x');
    await user.type(screen.getByLabelText('Temperature (mmr condition)'), '0.5');
    await user.type(screen.getByLabelText('Rounds (mmr condition)'), '2');
    let chat = jsonView().chat;
    expect(chat.conditions.mmr.systemPrompt).toBe('Be brief.');
    expect(chat.fallbackGreetings.mmr).toMatch(/ Welcome!$/);
    expect(chat.conditions.mmr.settings).toEqual({ model: 'claude-x', temperature: 0.5 });
    expect(chat.completion).toEqual({ mmr: { rounds: 2 } });
    await user.clear(screen.getByLabelText('Rounds (mmr condition)'));
    expect(jsonView().chat).not.toHaveProperty('completion');
    await user.type(screen.getByLabelText('Rounds (mmr condition)'), '2');
    expect(chat.conditions.control.systemPrompt).toBe('You answer questions about car seats.');
    // Emptied, a setting is "not set" again (the deployment's), not an empty value.
    await user.clear(screen.getByLabelText('Model (mmr condition)'));
    await user.clear(screen.getByLabelText('Temperature (mmr condition)'));
    chat = jsonView().chat;
    expect(chat.conditions.mmr).not.toHaveProperty('settings');
  });

  it('edits the fallback model and the prompt cache prices (issue 32), and shows the server’s refusal at the field', async () => {
    mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      'POST /api/admin/study-versions/check': (call) => {
        const fallback = (call.body as { definition: BuiltInStudyDefinition }).definition.chat.conditions.mmr.settings
          ?.fallbackModel;
        return json(200, {
          issues:
            fallback === 'nonesuch'
              ? [
                  {
                    path: 'chat.conditions.mmr.settings.fallbackModel',
                    message: 'no price is known for the fallback model "nonesuch"',
                  },
                ]
              : [],
        });
      },
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Chat: mmr condition');
    const fallback = screen.getByLabelText('Fallback model (mmr condition)');
    expect(fallback).toHaveAccessibleDescription(/answers when this one is overloaded/);
    await user.type(fallback, 'nonesuch');
    await waitFor(() => expect(fallback).toHaveAttribute('aria-invalid', 'true'));
    expect(fallback).toHaveAccessibleDescription(/no price is known for the fallback model "nonesuch"/);
    await user.clear(fallback);
    await user.type(fallback, 'claude-haiku-4-5');
    await waitFor(() => expect(fallback).not.toHaveAttribute('aria-invalid'));
    await user.type(screen.getByLabelText('Price per million input tokens, USD (mmr condition)'), '3');
    await user.type(screen.getByLabelText('Price per million output tokens, USD (mmr condition)'), '15');
    await user.type(
      screen.getByLabelText('Price per million tokens written to the prompt cache, USD (mmr condition)'),
      '3.75',
    );
    await user.type(
      screen.getByLabelText('Price per million tokens read from the prompt cache, USD (mmr condition)'),
      '0.3',
    );
    expect(jsonView().chat.conditions.mmr.settings).toEqual({
      fallbackModel: 'claude-haiku-4-5',
      price: { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 },
    });
    // Emptied, the fallback is not set again.
    await user.clear(fallback);
    expect(jsonView().chat.conditions.mmr.settings).not.toHaveProperty('fallbackModel');
  });

  it('shows a locked version’s fallback model, read-only', async () => {
    const locked = draftVersion({ locked: true });
    const definition = inBuiltInShape(locked.definition);
    const mmr = definition.chat.conditions.mmr;
    if (!mmr) throw new Error('the mmr condition');
    mmr.settings = { model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-4-5' };
    mockFetch({ [`GET ${url}`]: () => json(200, locked) });
    const user = userEvent.setup();
    show();
    await open(user, 'Chat: mmr condition');
    const fallback = screen.getByLabelText('Fallback model (mmr condition)');
    expect(fallback).toHaveValue('claude-haiku-4-5');
    expect(fallback).toHaveAttribute('readonly');
  });

  it('lists each chat arm’s model and fallback model on a flow’s version view', async () => {
    const flow = FLOW_TEMPLATES.find((f) => f.id === 'model-comparison');
    if (!flow) throw new Error('the model comparison template');
    const definition = structuredClone(flow);
    const chat = definition.steps.find((step) => step.type === 'chat');
    if (chat?.type !== 'chat' || !chat.arms.model_a) throw new Error('a chat step');
    chat.arms.model_a.model = { ...chat.arms.model_a.model, fallbackModel: 'claude-haiku-4-5' };
    mockFetch({ [`GET ${url}`]: () => json(200, { ...draftVersion(), definition }) });
    show();
    const row = (await screen.findByText(chat.id, { selector: 'td' })).closest('tr');
    expect(row).toHaveTextContent('model_a: claude-sonnet-4-5 (fallback: claude-haiku-4-5); model_b: gpt-5-mini');
  });

  it('shows each problem of a refused save next to its field and in a summary that leads to the field', async () => {
    mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      [`PUT ${url}`]: () =>
        json(400, {
          error: 'The study definition has problems',
          code: 'STUDY_INVALID',
          issues: [
            { path: 'chat.conditions.mmr.settings.temperature', message: 'must be 0 to 2' },
            { path: 'conditions.control.sections.0.blocks.0.table.rows.0.0', message: 'must not be empty' },
          ],
        }),
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Chat: mmr condition');
    await user.type(screen.getByLabelText('Temperature (mmr condition)'), '3');
    await user.click(screen.getByRole('button', { name: 'Save version' }));
    const temperature = screen.getByLabelText('Temperature (mmr condition)');
    await waitFor(() => expect(temperature).toHaveAttribute('aria-invalid', 'true'));
    expect(temperature).toHaveAccessibleDescription('0 to 2. must be 0 to 2');
    expect(screen.getByText('Chat: mmr condition').closest('summary')).toHaveTextContent('1 problem');
    expect(screen.getByText('Sections: control condition').closest('summary')).toHaveTextContent('1 problem');
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('The definition has 2 problems; it cannot be saved until they are fixed');
    expect(screen.getByText('2 problems, listed above')).toBeInTheDocument();
    // The summary leads to the field (its part opened), or to the nearest group for a place with no field.
    await user.click(within(summary).getByRole('button', { name: /temperature/ }));
    await waitFor(() => expect(screen.getByLabelText('Temperature (mmr condition)')).toHaveFocus());
    await user.click(within(summary).getByRole('button', { name: /table/ }));
    const text = await screen.findByRole('group', { name: 'Text of control section 1' });
    await waitFor(() => expect(text).toHaveFocus());
  });

  it('checks the draft as it changes and shows the problems by their fields, before any save', async () => {
    const calls = mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      'POST /api/admin/study-versions/check': (call) => {
        const sent = call.body as { definition: BuiltInStudyDefinition };
        const temperature = sent.definition.chat.conditions.mmr.settings?.temperature;
        return json(200, {
          issues:
            temperature === 3 ? [{ path: 'chat.conditions.mmr.settings.temperature', message: 'must be 0 to 2' }] : [],
        });
      },
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Chat: mmr condition');
    const temperature = screen.getByLabelText('Temperature (mmr condition)');
    await user.type(temperature, '3');
    await waitFor(() => expect(temperature).toHaveAttribute('aria-invalid', 'true'));
    expect(temperature).toHaveAccessibleDescription('0 to 2. must be 0 to 2');
    expect(screen.getByRole('alert')).toHaveTextContent('chat.conditions.mmr.settings.temperature: must be 0 to 2');
    await user.clear(temperature);
    await user.type(temperature, '1');
    await waitFor(() => expect(temperature).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("names a pathway in the study's words, the spec's shown while empty; emptied, the pathway is not set", async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Pathways (for researchers)');
    const label = screen.getByLabelText('Label of the confirm pathway');
    expect(label).toHaveAttribute('placeholder', 'no concerns at entry');
    await user.type(label, 'left early');
    await user.type(screen.getByLabelText('Description of the confirm pathway'), 'No questions.');
    expect(jsonView().pathways).toEqual({ confirm: { label: 'left early', description: 'No questions.' } });
    await user.clear(label);
    await user.clear(screen.getByLabelText('Description of the confirm pathway'));
    expect(jsonView()).not.toHaveProperty('pathways');
  });

  it('adds, renames and removes a condition through the Conditions form, every per-condition part following', async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Conditions');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    const added = jsonView() as unknown as StudyDefinition;
    expect(added.conditionList.map((c) => c.id)).toEqual(['mmr', 'control', 'condition_3']);
    expect(Object.keys(added.chat.fallbackGreetings)).toEqual(['mmr', 'control', 'condition_3']);
    // The new condition has its own Sections and Chat forms.
    expect(screen.getByText('Sections: condition_3 condition', { selector: 'summary span, summary' })).toBeTruthy();
    const id = screen.getByLabelText('Id of condition 3');
    await user.clear(id);
    await user.type(id, 'screens');
    await user.type(screen.getByLabelText('Label of condition 3'), ' (screen time)');
    const renamed = jsonView() as unknown as StudyDefinition;
    expect(renamed.conditionList[2]).toEqual({ id: 'screens', label: 'Condition 3 (screen time)' });
    expect(Object.keys(renamed.conditions)).toEqual(['mmr', 'control', 'screens']);
    expect(Object.keys(renamed.chat.conditions)).toEqual(['mmr', 'control', 'screens']);
    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    const removed = jsonView() as unknown as StudyDefinition;
    expect(removed.conditionList.map((c) => c.id)).toEqual(['control', 'screens']);
    expect(Object.keys(removed.conditions)).toEqual(['control', 'screens']);
    // Two is the least: neither can be removed now.
    expect(screen.getByRole('button', { name: 'Remove condition 1' })).toBeDisabled();
  });

  it("edits a block's table: cells named for their place, rows and columns added, moved and removed", async () => {
    // The mmr condition's third section (the risk panel) alone, so the form re-renders quickly in jsdom.
    const version = draftVersion();
    const { mmr } = inBuiltInShape(version.definition).conditions;
    if (!mmr) throw new Error('the built-in study has an mmr condition');
    mmr.sections = mmr.sections.slice(2, 3);
    mockFetch({
      [`GET ${url}`]: () => json(200, version),
      'POST /api/admin/study-versions/check': () =>
        json(200, {
          issues: [{ path: 'conditions.mmr.sections.0.blocks.3.table.rows.1.1', message: 'must not be empty' }],
        }),
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Sections: mmr condition');
    const of = 'of the table in mmr section 1 block 4';
    const table = () => jsonView().conditions.mmr.sections[0]?.blocks[3]?.table;
    const cell = screen.getByLabelText(`Row 2, column 2 ${of}`);
    expect(cell).toHaveValue('About 1');
    await user.clear(cell);
    // The server's issue on that cell lands on it, and the summary leads to it.
    await waitFor(() => expect(cell).toHaveAttribute('aria-invalid', 'true'));
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: /rows\.1\.1/ }));
    await waitFor(() => expect(cell).toHaveFocus());
    await user.type(cell, '2');

    await user.click(screen.getByRole('button', { name: `Add column ${of}` }));
    await user.type(screen.getByLabelText(`Heading of column 3 ${of}`), 'M');
    await user.type(screen.getByLabelText(`Row 1, column 3 ${of}`), '9');
    expect(table()?.columns).toEqual(['Event', 'Per 100,000 children', 'M']);
    expect(table()?.rows.every((row) => row.length === 3)).toBe(true);
    await user.click(screen.getByRole('button', { name: `Move column 3 left ${of}` }));
    expect(table()?.columns).toEqual(['Event', 'M', 'Per 100,000 children']);
    expect(table()?.rows[0]?.slice(1)).toEqual(['9', '42']);
    await user.click(screen.getByRole('button', { name: `Remove column 3 ${of}` }));
    expect(table()?.columns).toEqual(['Event', 'M']);
    expect(table()?.rows[1]).toEqual(['After the vaccine: severe allergic reaction', '']);

    await user.click(screen.getByRole('button', { name: `Move row 2 up ${of}` }));
    expect(table()?.rows[0]?.[0]).toBe('After the vaccine: severe allergic reaction');
    await user.click(screen.getByRole('button', { name: `Remove row 1 ${of}` }));
    expect(table()?.rows).toHaveLength(5);
    const rows = screen.getByRole('group', { name: `Rows ${of}` });
    await user.click(within(rows).getByRole('button', { name: 'Add row' }));
    expect(table()?.rows.at(-1)).toEqual(['', '']);
    await user.click(screen.getByRole('button', { name: 'Remove the table in mmr section 1 block 4' }));
    expect(jsonView().conditions.mmr.sections[0]?.blocks[3]).not.toHaveProperty('table');
  });

  it('adds a table to a block that has none, two empty columns and one row to fill in', async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Consent');
    await user.click(screen.getByRole('button', { name: 'Add a table to consent block 1' }));
    await user.type(screen.getByLabelText('Row 1, column 1 of the table in consent block 1'), 'A');
    expect(jsonView().consent.blocks[0]?.table).toEqual({ caption: '', columns: ['', ''], rows: [['A', '']] });
  });

  it("writes the static-intro and completion pages' own texts, the spec's shown while empty; the issues land on them", async () => {
    mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      'POST /api/admin/study-versions/check': (call) => {
        const { definition } = call.body as { definition: StudyDefinition };
        const half = definition.pages?.completion && !definition.pages.completion.instructions;
        return json(200, { issues: half ? [{ path: 'pages.completion.instructions', message: 'Required' }] : [] });
      },
    });
    const user = userEvent.setup();
    show();
    await open(user, 'Static-intro and completion pages');
    expect(screen.getByLabelText('Title of the static-intro page')).toHaveAttribute('placeholder', 'Before you begin');
    const thanks = screen.getByLabelText('Thanks above the completion code');
    expect(thanks).toHaveAttribute('placeholder', 'Thank you for taking part in this study.');
    await user.type(thanks, 'Thanks!');
    expect(jsonView().pages).toEqual({ completion: { thanks: 'Thanks!' } });
    const instructions = screen.getByLabelText('What to do with the completion code');
    await waitFor(() => expect(instructions).toHaveAttribute('aria-invalid', 'true'));
    await user.type(instructions, 'Paste it.');
    await waitFor(() => expect(instructions).not.toHaveAttribute('aria-invalid'));

    await user.click(screen.getByRole('button', { name: 'Write the page’s own paragraphs' }));
    expect(jsonView().pages?.staticIntro?.paragraphs[0]).toBe(
      'Next, you will read {sections} short sections of information about {topic}.',
    );
    await user.type(screen.getByLabelText('Paragraph 3'), '!');
    expect(jsonView().pages?.staticIntro).toMatchObject({ title: 'Before you begin' });
    expect(jsonView().pages?.staticIntro?.paragraphs[2]).toMatch(/assistant\.!$/);
    await user.click(screen.getByRole('button', { name: 'Use the spec’s static-intro page' }));
    await user.clear(thanks);
    await user.clear(instructions);
    expect(jsonView()).not.toHaveProperty('pages');
  });

  it('keeps forms and JSON view one draft: a JSON edit shows in the forms; broken JSON hides them', async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    const user = userEvent.setup();
    show();
    await open(user, 'Sections: mmr condition');
    const edited = jsonView() as unknown as { conditions: { mmr: { sections: { title: string }[] } } };
    Object.assign(edited.conditions.mmr.sections[0] ?? {}, { title: 'From the JSON' });
    fireEvent.change(screen.getByLabelText('Study definition (JSON)'), { target: { value: JSON.stringify(edited) } });
    expect(screen.getByLabelText('Title of mmr section 1')).toHaveValue('From the JSON');
    // Paragraph labels repeat per block ("Paragraph 1" under "Paragraphs of block 1"): found by the field's path.
    const paragraph = document.getElementById('study-field-conditions.mmr.sections.0.blocks.0.paragraphs.0');
    expect(paragraph).toHaveAccessibleName('Paragraph 1');
    await user.type(paragraph as HTMLElement, '!');
    expect(jsonView().conditions.mmr.sections[0]?.blocks[0]?.paragraphs?.[0]).toMatch(/!$/);
    // A Markdown block is its Markdown alone.
    const text = screen.getByRole('group', { name: 'Text of mmr section 1' });
    await user.click(within(text).getByRole('button', { name: 'Add Markdown block' }));
    const blocks = jsonView().conditions.mmr.sections[0]?.blocks ?? [];
    await user.type(within(text).getByLabelText(`Markdown of block ${blocks.length}`), '## Why');
    expect(jsonView().conditions.mmr.sections[0]?.blocks.at(-1)).toEqual({ markdown: '## Why' });
    fireEvent.change(screen.getByLabelText('Study definition (JSON)'), { target: { value: '{"title": ' } });
    expect(screen.queryByLabelText('Title of mmr section 1')).not.toBeInTheDocument();
    expect(screen.getByText(/Not valid JSON/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save version' })).toBeDisabled();
  });

  it('asks in a dialog before a link or Clone leaves unsaved changes: Stay keeps the draft, Leave leaves', async () => {
    const calls = mockFetch({
      [`GET ${url}`]: () => json(200, draftVersion()),
      [`POST ${url}/clone`]: () => json(201, draftVersion({ id: '22222222-2222-4222-8222-222222222222' })),
    });
    const confirm = vi.spyOn(window, 'confirm');
    const user = userEvent.setup();
    show();
    await user.type(await screen.findByLabelText('Label'), ' v2');
    await user.click(screen.getByRole('link', { name: /Back to Study versions/ }));
    const dialog = screen.getByRole('dialog', { name: 'Discard the unsaved changes to this study version?' });
    expect(within(dialog).getByRole('button', { name: 'Stay' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Label')).toHaveValue('Draft A v2');

    await user.click(screen.getByRole('button', { name: 'Clone this version' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/clone'))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Clone this version' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/clone'))).toBe(true));
    expect(confirm).not.toHaveBeenCalled();
  });

  it("guards the browser's Back button: the dialog shows, Stay keeps the draft, Leave goes back", async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    signInAs('admin');
    // An earlier test's editor (in a memory router) has stepped off its copy of the entry in jsdom's history.
    await waitFor(() => expect(window.history.state).toBeNull());
    window.history.replaceState(null, '', '/admin/studies');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <BrowserRouter>
          <Routes>
            <Route path="/admin/studies" element={<Link to={`/admin/studies/${VERSION_ID}`}>The list</Link>} />
            <Route path="/admin/studies/:id" element={<StudyEditorPage />} />
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('link', { name: 'The list' }));
    await user.type(await screen.findByLabelText('Label'), ' v2');

    window.history.back();
    const dialog = await screen.findByRole('dialog', { name: 'Discard the unsaved changes to this study version?' });
    expect(window.location.pathname).toBe(`/admin/studies/${VERSION_ID}`);
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.getByLabelText('Label')).toHaveValue('Draft A v2');

    window.history.back();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('link', { name: 'The list' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin/studies');
    // Forward returns to the editor, read again from the server (the draft was discarded).
    window.history.forward();
    expect(await screen.findByLabelText('Label')).toHaveValue('Draft A');
  });

  it('shows the built-in study read-only, and to an analyst every version', async () => {
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion({ is_default: true })) });
    const user = userEvent.setup();
    const { unmount } = show();
    await open(user, 'Pre-study survey');
    expect(screen.getByLabelText('Wording of question 1')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Add question' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save version' })).not.toBeInTheDocument();
    unmount();
    mockFetch({ [`GET ${url}`]: () => json(200, draftVersion()) });
    show('analyst');
    await open(user, 'Chat: control condition');
    expect(screen.getByLabelText('System prompt (control condition)')).toHaveAttribute('readonly');
    await open(user, 'Pre-study survey');
    expect(screen.getByLabelText('Type of question 1')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Clone this version' })).not.toBeInTheDocument();
  });
});
