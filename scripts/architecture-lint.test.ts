import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import architecture from '../eslint-rules/architecture.js';

// The architecture lint rules (eslint-rules/architecture.js) catch what they are for. RuleTester runs each case
// as a test of its own; the module graph of the cycle rule is read from the real files, so it has its own check
// in `npm run lint`.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, sourceType: 'module' } });
const server = '/repo/apps/server/src';
const web = '/repo/apps/web/src';

tester.run('no-foreign-repository', architecture.rules['no-foreign-repository'], {
  valid: [
    { filename: `${server}/modules/chat/chat.service.ts`, code: "import { x } from './chat.repository.js';" },
    { filename: `${server}/modules/chat/chat.service.ts`, code: "import { x } from '../journey/journey.service.js';" },
  ],
  invalid: [
    {
      filename: `${server}/modules/chat/chat.service.ts`,
      code: "import { x } from '../journey/journey-facts.repository.js';",
      errors: [{ messageId: 'foreign' }],
    },
  ],
});

tester.run('no-cross-feature', architecture.rules['no-cross-feature'], {
  valid: [
    { filename: `${web}/features/study/pages/A.tsx`, code: "import { x } from '../../../components/Button';" },
    { filename: `${web}/features/study/chat/A.tsx`, code: "import { x } from '../participant-store';" },
  ],
  invalid: [
    {
      filename: `${web}/features/study/pages/A.tsx`,
      code: "import { x } from '../../admin/monitor/use-monitor';",
      errors: [{ messageId: 'cross' }],
    },
  ],
});

tester.run('no-upward-import', architecture.rules['no-upward-import'], {
  valid: [{ filename: `${server}/lib/context.ts`, code: "import type { AppConfig } from '../config.js';" }],
  invalid: [
    {
      filename: `${server}/lib/deps.ts`,
      code: "import { x } from '../modules/studies/study-source.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: `${server}/modules/chat/chat.routes.ts`,
      code: "import type { AppContext } from '../../app.js';",
      errors: [{ messageId: 'upward' }],
    },
  ],
});
