import { useSetupStatus } from '../setup/setup-status';
import { Suggestions } from './Suggestions';

interface TryAskingProps {
  questions: string[];
  onPick: (question: string) => void;
  onSetup?: () => void;
}

/** The suggestions of an empty conversation, offered only as setupStatus says an answer can be given. */
export function TryAsking({ questions, onPick, onSetup }: TryAskingProps) {
  const { status } = useSetupStatus();
  return <Suggestions questions={questions} canAnswer={status ? status.canAnswer : null} onPick={onPick} onSetup={onSetup} />;
}
