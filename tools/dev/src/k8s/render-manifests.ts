/**
 * Writes the Kubernetes manifests (typed in manifests.ts) as YAML:
 *   node tools/dev/dist/k8s/render-manifests.js [--registry R] [--tag T] [--out DIR]
 * Without options it rewrites the committed deploy/k8s; a release renders with its own registry and tag.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findWorkspaceRoot } from '@broker/local-services';
import { DEFAULT_MANIFEST_OPTIONS, kubernetesManifests } from './manifests.js';
import { manifestYaml } from './manifest-yaml.js';

const { values } = parseArgs({
  options: {
    registry: { type: 'string', default: DEFAULT_MANIFEST_OPTIONS.registry },
    tag: { type: 'string', default: DEFAULT_MANIFEST_OPTIONS.tag },
    out: { type: 'string', default: path.join(findWorkspaceRoot(__dirname), 'deploy/k8s') },
  },
});

mkdirSync(values.out, { recursive: true });
for (const [file, objects] of Object.entries(kubernetesManifests(values))) {
  writeFileSync(path.join(values.out, file), manifestYaml(objects));
  console.log(path.join(values.out, file));
}
