import { checkResponsesAgainstDocuments } from './documented-responses.js';

// jest setupFilesAfterEnv of the apps' suites: every supertest response is checked against its document.
checkResponsesAgainstDocuments();
