import { stringify } from 'yaml';

const HEADER =
  '# Generated from tools/dev/src/k8s/manifests.ts by `pnpm deploy:k8s`; edit that file, not this one.\n';

/** One manifest file: the objects as YAML documents, each validated against its Kubernetes schema first. */
export function manifestYaml(objects: { validate(): void; toJSON(): unknown }[]): string {
  return (
    HEADER +
    objects
      .map((object) => {
        object.validate();
        return stringify(object.toJSON(), { lineWidth: 0 });
      })
      .join('---\n')
  );
}
