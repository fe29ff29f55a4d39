import type { FormEvent } from 'react';

/** A text field of a submitted form ('' when the form has no such field). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * A form's submit handler: what `read` takes from the form goes to `send` (a mutation's `mutate`); the form is
 * emptied once that succeeded, ready for the next entry.
 */
export function submitHandler<Body>(
  read: (form: FormData) => Body,
  send: (body: Body, options: { onSuccess: () => void }) => void,
) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    send(read(new FormData(element)), { onSuccess: () => element.reset() });
  };
}
