import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TotpRequiredError } from '../lib/login';
import { LoginForm } from './LoginForm';
import { validateLogin } from '../features/auth/validate-login';

describe('validateLogin', () => {
  it.each([
    ['', '', { email: 'Email is required', password: 'Password is required' }],
    ['a@b', 'x', { email: 'Please enter a valid email address' }],
    ['  a@b.co ', 'x', {}],
    ['a@b.co', '', { password: 'Password is required' }],
  ])('email %j password %j', (email, password, errors) => {
    expect(validateLogin(email, password)).toEqual(errors);
  });
});

describe('LoginForm', () => {
  it('does not submit invalid input and shows the field errors', async () => {
    const onSubmit = vi.fn();
    render(<LoginForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows 'Logging in...' while busy, then the error it is given, and can be retried", async () => {
    let reject: (error: Error) => void = () => undefined;
    const onSubmit = vi.fn(() => new Promise<void>((_, r) => (reject = r)));
    render(<LoginForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Email'), 'admin@lab.org');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(onSubmit).toHaveBeenCalledWith('admin@lab.org', 'secret');
    expect(screen.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    reject(new Error('Invalid email or password'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
  });

  it('clears the previous error when a new attempt starts, even one the form itself refuses', async () => {
    const onSubmit = vi.fn(() => Promise.reject(new Error('Invalid email or password')));
    render(<LoginForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Email'), 'admin@lab.org');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.queryByText('Invalid email or password')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('falls back to the spec text when the error has no message', async () => {
    render(<LoginForm onSubmit={() => Promise.reject(new Error(''))} />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });

  it('asks for the authenticator code when the server wants it, and sends it with the next attempt', async () => {
    const onSubmit = vi
      .fn<(email: string, password: string, totp?: string) => Promise<void>>()
      .mockRejectedValueOnce(new TotpRequiredError('Enter the 6-digit code from your authenticator app.'))
      .mockResolvedValueOnce(undefined);
    render(<LoginForm onSubmit={onSubmit} />);
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'admin@lab.org');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the 6-digit code from your authenticator app.');
    await userEvent.type(screen.getByLabelText('Authentication code'), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(onSubmit).toHaveBeenLastCalledWith('admin@lab.org', 'secret', '123456');
  });
});
