/**
 * Writes the Kubernetes manifests (typed in manifests.ts) as YAML:
 *   node tools/dev/dist/k8s/render-manifests.js [--registry R] [--tag T] [--out DIR]
 * Without options it rewrites the committed deploy/k8s; a release renders with its own registry and tag.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findWorkspaceRoot } from '@broker/local-services';
import { kustomizationYaml, manifestYaml } from './manifest-yaml.js';
import { DEFAULT_MANIFEST_OPTIONS, kubernetesManifests, kustomization } from './manifests.js';

const { values } = parseArgs({
  options: {
    registry: { type: 'string', default: DEFAULT_MANIFEST_OPTIONS.registry },
    tag: { type: 'string', default: DEFAULT_MANIFEST_OPTIONS.tag },
    out: { type: 'string', default: path.join(findWorkspaceRoot(__dirname), 'deploy/k8s') },
  },
});

const files = kubernetesManifests(values);
const write = (file: string, text: string) => {
  writeFileSync(path.join(values.out, file), text);
  console.log(path.join(values.out, file));
};
mkdirSync(values.out, { recursive: true });
for (const [file, objects] of Object.entries(files)) write(file, manifestYaml(objects));
write('kustomization.yaml', kustomizationYaml(kustomization(files)));
