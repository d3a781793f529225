import { BlocksForm } from './BlocksForm';
import { TextInput } from './fields';

/** The consent page: its title, its text blocks and the contact paragraph above "I Consent". */
export function ConsentForm() {
  return (
    <>
      <TextInput path={['consent', 'title']} label="Consent page title" />
      <BlocksForm path={['consent', 'blocks']} legend="Consent text" place="consent" />
      <TextInput path={['consent', 'contact']} label="Consent contact paragraph" rows={3} />
    </>
  );
}
