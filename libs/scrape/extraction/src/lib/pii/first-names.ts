/**
 * Given names used by the offline PII detector (dictionary half of "pattern + dictionary"): common
 * names across English, European, Latin American, African, South and East Asian usage. Names that
 * are also everyday words or months (May, June, Grace, Will, Mark…) are left out on purpose.
 */
export const FIRST_NAMES: ReadonlySet<string> = new Set(
  `
aaron abigail abdul adam adrian ahmed aisha alan albert alejandro alex alexander alexandra alexis ali alice alicia alison amanda amber amelia amir amy ana anastasia andrea andreas andrew andrzej angela angelica anita ann anna anne annette anthony antoine antonio arjun arthur ashley aubrey audrey austin ava barbara beatriz ben benjamin bernard beth betty beverly bilal bogdan boris brandon brenda brian bridget brittany bruce bruno bryan caleb camila carl carla carlos carmen carol caroline carolyn catherine cecilia charles charlotte chen cheryl chiara chidi chloe chloé chris christian christina christine christopher claire clara claudia colin connor craig cristina cynthia dalia damien daniel daniela danielle david deborah debra denise dennis derek diana diane diego dimitri dmitri dominic donald donna doris dorothy dylan edward elena eli elias elijah elisa elizabeth ella ellen emily emma emmanuel enrique eric erik erin ethan eugene eva evelyn fatima federica felipe felix fernando fiona florian francesca francesco francis frank freya gabriel gabriela gary gemma george georgia gerald gianluca giorgio giovanni giulia gloria gordon gregory gustavo hamid hana hannah hans harold harry hassan heather helen helena henry hiroshi holly howard hugo ian ibrahim ines ingrid irene isaac isabel isabella isabelle ivan jack jacob jacqueline jakub james jamie jan jana janet janice jason javier jean jeffrey jennifer jeremy jessica joan joanna joao joe joel johan johannes john jonathan jordan jorge jose josé joseph joshua joyce juan judith julia julian julie justin kamal karen karim karl katarzyna kate katherine kathleen kathryn katie kayla keith kelly kenji kenneth kevin khalid kim kimberly kofi kristen kumar kyle lars laura lauren lawrence leah leo leon leonardo li liam lily linda lisa lorenzo louis lucas lucia lucy luis luisa luke lukas madison magdalena mai maja manuel marc marco marcus margaret maria mariana marie marilyn mario marta martha martin mary maria mateo matteo matthew maxim maya megan mehmet melissa mia michael michelle miguel mikhail min mohammed mohammad monica nadia nancy naomi natalia natalie nathan nicholas nicole nikhil nikolai noah noel nora oliver olivia omar oscar owen pablo pamela paolo patricia patrick paul paula pedro peter philip pierre piotr priya rachel rafael rahul rajesh ralph ramon randy raquel raymond rebecca richard rita robert roberto roger rohan ronald rosa ruth ryan sabrina sakura salma samantha samuel sandra sara sarah scott sean sebastian sergei sergio sharon shirley simon sofia sophia sophie stefan stefano stephanie stephen steven susan sven tamara tanya teresa terry thomas tiffany timothy tom tomasz tony tyler valentina valeria vanessa vera victor victoria vincent virginia walter wei william wojciech xavier yan yasmin yuki yusuf zach zachary zoe zoé
`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words after a capitalised name that make it an organisation or a place rather than a person. */
export const NON_PERSON_FOLLOWERS: ReadonlySet<string> = new Set(
  'university college school institute clinic hospital street avenue road boulevard lane drive court way place parkway square park inc ltd llc gmbh corp corporation company group logistics foundation bank center centre hall museum airport station bridge river lake mountain county city'.split(
    ' ',
  ),
);
