import type { Rule } from 'eslint';

declare const plugin: {
  rules: Record<'no-module-cycle' | 'no-foreign-repository' | 'no-cross-feature' | 'no-upward-import', Rule.RuleModule>;
};
export default plugin;
