import { JsonTemplate, JsonWriter } from './json-template';

describe('JsonTemplate', () => {
  const template = JsonTemplate.compile<'name' | 'items'>((hole) => ({
    fixed: 'Grüße "quoted"',
    name: hole('name'),
    nested: { items: hole('items'), after: [1, null] },
  }));

  it('writes the fixed text with each hole filled by text, bytes or a function', () => {
    const out = new JsonWriter();
    template.writeTo(out, {
      name: JSON.stringify('Ä\n'),
      items: (inner) => {
        inner.write('[');
        inner.write(Buffer.from('1,2'));
        inner.write(']');
      },
    });
    const written = out.finish().toString();
    expect(written).toBe(
      JSON.stringify({ fixed: 'Grüße "quoted"', name: 'Ä\n', nested: { items: [1, 2], after: [1, null] } }),
    );
  });

  it('grows its buffer past the first size and starts afresh after finish', () => {
    const out = new JsonWriter();
    const long = JSON.stringify('ü'.repeat(100_000));
    template.writeTo(out, { name: long, items: '[]' });
    expect(JSON.parse(out.finish().toString()).name).toHaveLength(100_000);
    template.writeTo(out, { name: '"x"', items: '[]' });
    expect(JSON.parse(out.finish().toString()).name).toBe('x');
  });
});
