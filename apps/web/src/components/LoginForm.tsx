import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from './Alert';
import { Button } from './Button';
import { TextField } from './TextField';
import { TotpRequiredError } from '../lib/login';
import { validateLogin, type LoginErrors } from '../features/auth/validate-login';

export interface LoginFormProps {
  /**
   * Resolves on success; rejects with an Error whose message is shown. A TotpRequiredError asks for the
   * authenticator code, which the next submit passes as `totp`.
   */
  onSubmit: (email: string, password: string, totp?: string) => Promise<void>;
  emailLabel?: string;
  emailHint?: string;
  passwordHint?: string;
  /** Extra guidance shown under the error message. */
  errorGuidance?: ReactNode;
  disabled?: boolean;
  submitLabel?: string;
}

/** Email and password form: validates, shows 'Logging in...' while busy and the error it is given. */
export function LoginForm({
  onSubmit,
  emailLabel = 'Email',
  emailHint,
  passwordHint,
  errorGuidance,
  disabled = false,
  submitLabel = 'Log In',
}: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<LoginErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState('');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || disabled) return;
    // A new attempt starts: the previous attempt's error goes, whatever this one turns out to be.
    setError(null);
    const errors = validateLogin(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setBusy(true);
    try {
      if (askCode) await onSubmit(email.trim(), password, code.replace(/\s/g, ''));
      else await onSubmit(email.trim(), password);
    } catch (err) {
      if (err instanceof TotpRequiredError) setAskCode(true);
      setError(err instanceof Error && err.message ? err.message : 'Invalid email or password');
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void handleSubmit(e)} className="space-y-4">
      <TextField
        label={emailLabel}
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldErrors.email}
        hint={emailHint}
        disabled={disabled}
        required
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
        hint={passwordHint}
        disabled={disabled}
        required
      />
      {askCode && (
        <TextField
          label="Authentication code"
          name="totp"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          hint="The 6-digit code from your authenticator app."
          disabled={disabled}
          required
        />
      )}
      {error && (
        <Alert>
          <p>{error}</p>
          {errorGuidance && <div className="mt-1">{errorGuidance}</div>}
        </Alert>
      )}
      <Button type="submit" className="w-full" disabled={busy || disabled}>
        {busy ? 'Logging in...' : submitLabel}
      </Button>
    </form>
  );
}
