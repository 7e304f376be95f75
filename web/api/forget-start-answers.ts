// The page's data among the daemon's start answers (ROUTE_DATA_PATHS: the page it framed) that the
// console's start did not take: dropped once the console has rendered (web/main.tsx), since taken
// later, when that page is opened, they would be old. A module of its own, loaded after the first
// render: the first load carries nothing of it.
import { ROUTE_DATA_PATHS } from '../../device/model/start-answers.ts';
import { takeStartAnswer } from './start-answers.ts';

export function forgetStartAnswers(): void {
  for (const paths of Object.values(ROUTE_DATA_PATHS)) for (const p of paths) takeStartAnswer(p);
}
