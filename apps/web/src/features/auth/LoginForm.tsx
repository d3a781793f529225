import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { validateLogin, type LoginErrors } from './validate-login';

export interface LoginFormProps {
  /** Resolves on success; rejects with an Error whose message is shown. */
  onSubmit: (email: string, password: string) => Promise<void>;
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

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || disabled) return;
    const errors = validateLogin(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setError(null);
    setBusy(true);
    try {
      await onSubmit(email.trim(), password);
    } catch (err) {
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
