// class-transformer keeps its metadata storage in a module its typings do not declare; the OpenAPI generator
// needs it to follow @Type() to nested DTOs.
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}
