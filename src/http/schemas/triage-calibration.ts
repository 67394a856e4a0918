import { Type } from '@sinclair/typebox';
import { Nullable } from './common.js';

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const PairClassifier = Type.Object(
  {
    model: Type.String({ description: 'The classifier\'s model, named by the matcher it was trained for: `lexical`, `multilingual-e5-small`' }),
    auto_link_probability: Share('A link suggestion is made, and accepted by `auto`, from this probability up'),
    review_probability: Share('A candidate is named as a possible duplicate from this probability up'),
    link_precision: Share('Share of link suggestions that were right, on held-out folds of the development pairs'),
    link_recall: Share('Share of the duplicates that got a link suggestion to their issue'),
    review_precision: Share('Share of the issues offered (a link\'s issue or a possible duplicate) that were right'),
    review_recall: Share('Share of the duplicates whose issue was offered'),
    conversations: Type.Integer({ minimum: 0, description: 'Conversations (labelled pairs) the figures were measured on' }),
    folds: Type.Integer({ minimum: 1, description: 'Folds of the cross-validation, grouped so that a text never sits on both sides' }),
  },
  { additionalProperties: false },
);

export const TriageCalibration = Type.Object(
  {
    matcher: Type.String({ description: 'The duplicate matcher triage runs now, as GET /readyz names it (`auto` switches from `lexical` once its model loads)' }),
    classifier: Nullable(PairClassifier, {
      description: 'The pair classifier that decides among the matcher\'s candidates, with its published figures; null when none is ' +
        'calibrated for the matcher: its link suggestions then wait for a person even in `auto`',
    }),
  },
  {
    $id: 'TriageCalibration',
    additionalProperties: false,
    description: '[ext] What a product in triage `auto` links automatically, measured',
    examples: [{
      matcher: 'lexical',
      classifier: {
        model: 'lexical', auto_link_probability: 0.87, review_probability: 0.2, link_precision: 0.929, link_recall: 0.019,
        review_precision: 0.371, review_recall: 0.357, conversations: 10174, folds: 5,
      },
    }],
  },
);
