export * from './private-liability-request.dto.js';
export * from './private-liability-response.dto.js';
