import { TextInput } from './fields';

/** The study's title and id. */
export function GeneralForm() {
  return (
    <>
      <TextInput path={['title']} label="Study title" />
      <TextInput path={['id']} label="Study id" hint="Lower-case letters, digits and dashes." />
    </>
  );
}
