import type { BuiltInStudyDefinition } from './types.js';
import { builtInConditionList } from './mmr-study.conditions.js';
import { MMR_BASELINE_KEY, MMR_ENTRY_KEY, MMR_ENTRY_VALUES, MMR_POST_KEY } from './mmr-study.keys.js';

// Everything participants read, as data (DESIGN.md convention 12). Statistics follow spec section 9;
// wording follows CDC and American Academy of Pediatrics (AAP) guidance in plain language.
export const mmrStudyContent: Omit<BuiltInStudyDefinition, 'chat' | 'pre'> = {
  id: 'mmr-well-visit',
  title: 'Well-visit study',
  consent: {
    title: 'Informed Consent',
    blocks: [
      {
        paragraphs: [
          'Please read this page carefully. It explains what the study is about and what taking part involves, so that you can decide whether you want to take part.',
        ],
      },
      {
        heading: 'Purpose of the study',
        paragraphs: [
          'We are researchers studying how parents find and talk about information on children’s health and safety. In this study you will imagine an upcoming visit to your child’s doctor, answer a few short questions, read some information, and have a short text conversation with an AI assistant.',
        ],
      },
      {
        heading: 'Who can take part',
        paragraphs: ['You can take part if both of these apply to you:'],
        bullets: ['You are 18 years of age or older.', 'You are a parent of at least one child under 5 years old.'],
      },
      { paragraphs: ['Please do not continue if either of these does not apply to you.'] },
      {
        heading: 'What you will do and how long it takes',
        paragraphs: [
          'The study takes about 10 minutes. You will answer a few multiple-choice questions, read four short sections of information (each stays on screen for a short minimum time), chat with an AI assistant, and answer one final question.',
        ],
      },
      {
        heading: 'Taking part is voluntary',
        paragraphs: [
          'Taking part is entirely your choice. You may skip the study or stop at any time by closing this window, without giving a reason and without any penalty. If you stop before the end, you will not receive the completion code.',
        ],
      },
      {
        heading: 'Compensation',
        paragraphs: [
          'You will be paid through Prolific at the rate shown in the study listing. At the end you will receive a completion code to submit on Prolific.',
        ],
      },
      {
        heading: 'Risks and benefits',
        paragraphs: [
          'The risks are no greater than those of everyday life. Some questions concern vaccination or child safety, which some people find sensitive; you may stop at any time. There is no direct benefit to you, but your answers will help researchers learn how to share health information more clearly.',
        ],
      },
      {
        heading: 'Important disclaimer',
        paragraphs: [
          'This study is for research purposes only and does not provide medical advice. The AI assistant can make mistakes. Please talk to your child’s doctor or another qualified health professional about any health questions or decisions.',
        ],
      },
      {
        heading: 'Confidentiality',
        paragraphs: [
          'We do not ask for your name, email address or any other information that directly identifies you, so please do not type such details into the chat. Your answers and chat messages are stored securely, linked only to your Prolific ID, and are seen only by the research team. Results are reported in summary form only, and anonymized data may be shared with other researchers.',
        ],
      },
    ],
    contact:
      'If you have questions about this study, please contact the research team through Prolific’s messaging system. Clicking "I Consent" confirms that you have read this information, meet the eligibility criteria and agree to take part.',
  },
  entry: {
    title: 'Appointment Reminder',
    scenario: [
      'Please imagine that you have just received this reminder from your child’s doctor’s office:',
      'How do you feel about the MMR vaccine dose at this visit?',
    ],
    reminder:
      'Your child has a well-visit scheduled for next week. At this visit, your child is due for a dose of the MMR (measles, mumps and rubella) vaccine.',
    questionsLabel: 'I have questions or concerns about MMR',
    confirmLabel: 'No concerns about the MMR vaccine',
    key: MMR_ENTRY_KEY,
    values: MMR_ENTRY_VALUES,
  },
  baseline: {
    question: 'How much do you intend for your child to receive the MMR vaccine at the well-visit next week?',
    labels: { min: 'Definitely not', mid: 'Uncertain', max: 'Definitely yes' },
    key: MMR_BASELINE_KEY,
  },
  post: {
    title: 'Last Step',
    question:
      'Now that you have finished, how much do you intend for your child to receive the MMR vaccine at the well-visit next week?',
    key: MMR_POST_KEY,
  },
  conditionList: builtInConditionList(),
  conditions: {
    mmr: {
      topic: 'the MMR vaccine',
      sections: [
        {
          id: 'mmr-what',
          title: 'What the MMR vaccine is',
          minSeconds: 15,
          blocks: [
            {
              paragraphs: [
                'The MMR vaccine protects against three diseases caused by viruses: measles, mumps and rubella (also called German measles).',
                'The CDC and the American Academy of Pediatrics (AAP) recommend two doses for every child: the first at 12 to 15 months of age and the second at 4 to 6 years, before starting school.',
              ],
            },
            {
              heading: 'How well it works',
              bullets: [
                'One dose is about 93% effective at preventing measles; two doses are about 97% effective.',
                'Two doses are about 88% effective at preventing mumps.',
                'One dose is about 97% effective at preventing rubella.',
              ],
            },
            {
              paragraphs: ['Protection from two doses is long-lasting; most people never need another dose as adults.'],
            },
          ],
        },
        {
          id: 'mmr-diseases',
          title: 'Why these diseases matter',
          minSeconds: 20,
          blocks: [
            {
              heading: 'Measles',
              paragraphs: [
                'Measles is one of the most contagious diseases known. The virus spreads through the air when an infected person breathes, coughs or sneezes, and it can stay in a room for up to two hours after they leave. Up to 9 out of 10 people who are close to an infected person and are not protected will catch it.',
                'Measles causes high fever, cough, runny nose, red and watery eyes, and a rash that spreads over the body. Children under 5 are among those most likely to have serious complications, such as pneumonia, brain swelling (encephalitis) and, rarely, death.',
              ],
            },
            {
              heading: 'Mumps and rubella',
              paragraphs: [
                'Mumps causes fever and painful swelling of the glands in the cheeks and jaw. It can lead to deafness, swelling of the brain and its lining, and painful swelling of the testicles or ovaries.',
                'Rubella is usually mild in children, but if a pregnant woman catches it, it can cause miscarriage or serious birth defects in her baby. Vaccinating children helps protect pregnant women around them.',
              ],
            },
            {
              paragraphs: [
                'Measles was declared eliminated from the United States in 2000, but it is still common in many parts of the world. Travelers bring it back, and it spreads quickly in communities where many people are not vaccinated.',
              ],
            },
          ],
        },
        {
          id: 'mmr-safety',
          title: 'Safety and side effects',
          minSeconds: 40,
          blocks: [
            {
              paragraphs: [
                'The MMR vaccine has been used in the United States since 1971 and is one of the most studied vaccines. Hundreds of millions of doses have been given, and its safety continues to be monitored.',
              ],
            },
            {
              heading: 'Common, mild reactions',
              bullets: [
                'Sore arm or redness where the shot was given.',
                'Fever, or a mild rash, about 1 to 2 weeks after the shot.',
                'Temporary swelling of the glands in the cheeks or neck.',
              ],
            },
            { paragraphs: ['These usually go away on their own within a few days.'] },
            {
              heading: 'Comparing risks',
              paragraphs: [
                'Serious problems after the vaccine are rare. The risks from the diseases themselves are much higher. The table compares how often serious events happen, for every 100,000 children.',
              ],
              table: {
                caption:
                  'How often serious problems happen, per 100,000 children: after an MMR vaccine dose, compared with children who catch measles',
                columns: ['Event', 'Per 100,000 children'],
                rows: [
                  ['After the vaccine: seizure caused by fever (febrile seizure)', '42'],
                  ['After the vaccine: severe allergic reaction', 'About 1'],
                  ['Children with measles: hospitalization', '20,000'],
                  ['Children with measles: pneumonia', '5,000'],
                  ['Children with measles: brain swelling (encephalitis)', '100'],
                  ['Children with measles: death', '200'],
                ],
              },
            },
            {
              paragraphs: [
                'Febrile seizures look frightening but almost always pass quickly and cause no lasting harm. Severe allergic reactions are very rare, and clinics are prepared to treat them right away.',
                'Large studies involving millions of children in several countries have found no link between the MMR vaccine and autism.',
              ],
            },
          ],
        },
        {
          id: 'mmr-community',
          title: 'Protecting your child and your community',
          minSeconds: 25,
          blocks: [
            {
              paragraphs: [
                'In the 2023-24 school year, 92.7% of kindergartners in the United States had received both doses of the MMR vaccine. That is below the 95% that public-health experts say is needed to stop measles from spreading in a community.',
                'When enough people are vaccinated, the virus has a hard time spreading. This protects babies who are too young for the vaccine and people who cannot be vaccinated for medical reasons.',
              ],
            },
            {
              heading: 'Before the visit',
              bullets: [
                'Write down any questions you have and bring them to the appointment.',
                'Tell the doctor if your child has a serious allergy, a weakened immune system, or had a reaction to a vaccine before.',
                'Ask how to make the shot easier for your child, such as holding them or bringing a favorite toy.',
              ],
            },
            {
              paragraphs: ['Your child’s doctor is the best person to talk to about vaccines and your child’s health.'],
            },
          ],
        },
      ],
    },
    control: {
      topic: 'rear-facing car seats',
      sections: [
        {
          id: 'seat-why',
          title: 'Why rear-facing car seats matter',
          minSeconds: 15,
          blocks: [
            {
              paragraphs: [
                'Car crashes are a leading cause of death for young children in the United States. Using the right car seat, correctly installed, greatly lowers the risk of serious injury.',
                'A rear-facing car seat supports a young child’s head, neck and back. In a crash, the seat’s shell absorbs the force and spreads it across the whole body, instead of the child being thrown forward against the harness.',
              ],
            },
            {
              paragraphs: [
                'This matters because a young child’s head is large and heavy compared with their body, and the bones and muscles of the neck are still developing.',
              ],
            },
          ],
        },
        {
          id: 'seat-how-long',
          title: 'How long to stay rear-facing',
          minSeconds: 20,
          blocks: [
            {
              paragraphs: [
                'The American Academy of Pediatrics (AAP) recommends that children ride rear-facing for as long as possible, until they reach the highest height or weight allowed by their car seat’s manufacturer.',
                'Many convertible car seats allow children to ride rear-facing until about 40 to 50 pounds, which means most children can stay rear-facing until after their second birthday, and often longer.',
              ],
            },
            {
              heading: 'Common questions',
              bullets: [
                'Bent legs are fine: children are comfortable sitting cross-legged or with their feet against the vehicle seat, and leg injuries in rear-facing seats are rare.',
                'Turning forward-facing is not a milestone to rush: each step to the next type of seat offers a little less protection.',
                'Always check the labels on your seat for its limits.',
              ],
            },
          ],
        },
        {
          id: 'seat-install',
          title: 'Installing the seat correctly',
          minSeconds: 20,
          blocks: [
            {
              paragraphs: [
                'Many car seats are installed or used incorrectly. A few simple checks help make sure the seat protects your child:',
              ],
              bullets: [
                'Use the back seat: it is the safest place for children under 13. Never put a rear-facing seat in front of an active airbag.',
                'Install the seat with either the lower anchors (LATCH) or the seat belt, as the manual describes, and check that it moves less than 1 inch side to side at the belt path.',
                'Set the recline angle using the seat’s indicator so that your baby’s head does not fall forward.',
                'Place the harness straps at or below your child’s shoulders, buckle the chest clip at armpit level, and tighten until you cannot pinch any slack at the shoulder.',
                'Take off bulky coats before buckling in; put a blanket over the harness instead.',
              ],
            },
            {
              paragraphs: ['Certified child passenger safety technicians can check your installation, often for free.'],
            },
          ],
        },
        {
          id: 'seat-today',
          title: 'Car seats today',
          minSeconds: 20,
          blocks: [
            {
              paragraphs: [
                'In 2023, 89% of infants in the United States rode in rear-facing car seats, according to national observation surveys. Fewer children stay rear-facing as they get older, even though their seats often allow it.',
              ],
            },
            {
              heading: 'Keeping your child safe on every trip',
              bullets: [
                'Use the car seat on every trip, even short ones.',
                'Register your car seat with the manufacturer so you hear about any recalls.',
                'Replace a car seat after a moderate or severe crash, and do not use a seat that is past its expiration date.',
                'Never leave a child alone in a car, even for a minute.',
              ],
            },
            {
              paragraphs: [
                'Your child’s doctor or a certified car-seat technician can answer questions about choosing and using a car seat.',
              ],
            },
          ],
        },
      ],
    },
  },
};
