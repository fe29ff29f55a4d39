/** Markup that is already safe to write as is. */
export class Html {
  constructor(readonly markup: string) {}
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.markup;
  if (typeof value === 'string' || typeof value === 'number')
    return String(value).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  if (value === null || value === undefined || value === false) return '';
  return value.map(render).join('');
}

/**
 * A template literal whose interpolated values are escaped (text, attribute values in quotes), except values that
 * are Html themselves; arrays are joined, and null, undefined and false write nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(strings.reduce((markup, text, index) => markup + render(values[index - 1]) + text));
}
