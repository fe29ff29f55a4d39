import { stringify } from 'yaml';
import type { Kustomization } from './manifests.js';

const HEADER =
  '# Generated from tools/dev/src/k8s/manifests.ts by `pnpm deploy:k8s`; edit that file, not this one.\n';

const toYaml = (value: unknown) => stringify(value, { lineWidth: 0 });

/** One manifest file: the objects as YAML documents, each validated against its Kubernetes schema first. */
export function manifestYaml(objects: { validate(): void; toJSON(): unknown }[]): string {
  return (
    HEADER +
    objects
      .map((object) => {
        object.validate();
        return toYaml(object.toJSON());
      })
      .join('---\n')
  );
}

export const kustomizationYaml = (kustomization: Kustomization) => HEADER + toYaml(kustomization);
