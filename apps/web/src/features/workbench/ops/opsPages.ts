/** The page parts of the job centre's resources, one chunk loaded with the first of their pages. */
export { executionPages } from './executionPages.tsx';
export { jobPages } from './jobPages.tsx';
export { adhocPages, playbookPages } from './templatePages.tsx';
