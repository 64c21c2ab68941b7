"""Write cases.jsonl: the outsider's hostile cases on what language asserts.

Written from README.md, docs/*.md and docs/design/*.md only (plus `provenance --help` and
the public docstrings). `python build_cases.py` rewrites cases.jsonl beside it.

Each case: id, class, expect (must_fail / must_pass), text, sources, optional messages,
options, judges, script, truth, why. A must_pass case's `why` quotes the doc that promises it,
or says "expected of any careful reader" where no doc promises it.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES: list[dict] = []

# A neutral passage for cases whose evidence is the conversation or a tool's result: the
# runner always passes `sources`, and this one says nothing any answer below restates.
NEUTRAL = ["Our support team answers messages on working days between 08:00 and 18:00."]


def case(cid, cls, expect, text, sources, why, *, messages=None, options=None, judges=None,
         script=None, truth=None):
    assert expect in ("must_fail", "must_pass"), cid
    assert all(c["id"] != cid for c in CASES), cid
    row = {"id": cid, "class": cls, "expect": expect, "text": text, "sources": sources}
    if messages is not None:
        row["messages"] = messages
    if options:
        row["options"] = options
    row["judges"] = judges or ["rules"]
    if script:
        row["script"] = script
    if truth:
        row["truth"] = truth
    row["why"] = why
    CASES.append(row)


def user(*turns):
    """A chat of user turns (and assistant turns given as ("assistant", text))."""
    out = []
    for t in turns:
        if isinstance(t, tuple):
            out.append({"role": t[0], "content": t[1]})
        else:
            out.append({"role": "user", "content": t})
    return out


def tool_chat(question, name, result, *, args=None, fmt="openai", is_error=False):
    """A user question, an assistant's tool call and the tool's result (docs/usage.md)."""
    content = result if isinstance(result, str) else json.dumps(result)
    args = args or {}
    if fmt == "openai":
        return [
            {"role": "user", "content": question},
            {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ]
    part = {"type": "tool_result", "tool_use_id": "toolu_1", "content": content}
    if is_error:
        part["is_error"] = True
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": name,
                                           "input": args}]},
        {"role": "user", "content": [part]},
    ]


# Doc quotes used in `why` of true cases.
D_FRONT = ('docs/judges.md: "a fronted date"; design/local-judge.md: "In 2019 the firm moved" / '
           '"the firm moved in 2019" ... "moved to the end"')
D_FACT = ('design/local-judge.md: "\'found that\', \'showed that\' state it: tokens.FACTIVES"; '
          '"Findings (\'found\', \'showed\') are not on the list"')
D_ATTR = 'docs/judges.md: "keep the attribution in the answer and it passes"'
D_USER = ('docs/usage.md: "A user turn grounds a faithful restatement of what the user asserted '
          'about themselves ... in the second person"')
D_SAIDBACK = ('docs/usage.md: "\'my order\' as \'your order\', \'you owe me\' as \'we owe you\': '
              'who did what to whom is kept"')
D_COORD = ('design/local-judge.md: "coordinated clauses ... cut at \'and\' + verb; the second '
           'clause takes the first\'s subject"')
D_ITEM = ('docs/usage.md: "An item is read with the fields of what holds it (its order), never '
          'with another item\'s"')
D_JSON = ('docs/usage.md: "JSON is read field by field ... dates in ISO and written forms, numbers '
          'with or without separators, money with its currency"')
D_PASSIVE = 'docs/judges.md: "Common restatements read alike (active and passive, ...)"'
D_LESSDATE = ('design/local-judge.md: "a less precise claim | \'opened in 1889\' for \'opened on '
              '31 March 1889\' | a date or number of another kind may be skipped"')
D_SYN = ('docs/judges.md: "synonyms of one first sense in Open English WordNet: \'built\' for '
         '\'constructed\'"')
D_BEFOREHEAD = ('docs/judges.md: "What still passes: a group or time the source restricts after '
                'the statement or before its head, left out"; local-judge.md: "\'the new museum '
                'opened\' does state \'the museum opened\'"')
D_APPOS = ('design/local-judge.md: "apposition, relative clause, brackets ... skipped as a '
           'parenthetical"')
D_NUM = ('docs/judges.md: "number, date and unit formats"; "Written-out numbers and scales read '
         'by value"')
D_BOUND = ('docs/judges.md: "\'over\', \'more than\', \'at least\', \'under\', \'less than\', '
           '\'fewer than\', \'at most\', \'up to\' are bounds: \'more than 40,000\' passes against '
           '48,000"')
D_MONEY = ('docs/judges.md: "Money is its number and its currency, written any way CLDR knows"')
D_UNITS = ('docs/judges.md: "Units of one dimension convert first, a converted figure rounded at '
           '0.5% (\'1,083 feet\' for 330 metres)"')
CAREFUL = "expected of any careful reader (no doc promises it)"


# ---------------------------------------------------------------------------------------------
# 1. frame_not_asserting: the words are there, the frame does not assert them
# ---------------------------------------------------------------------------------------------
F = "frame_not_asserting"

# sources whose matrix clause does not assert its "that ..." clause
case("fr-no-chance", F, "must_fail", "The ferry service will resume in April.",
     ["There is no chance that the ferry service will resume in April. Repairs take a year."],
     "'there is no chance that' denies the clause")
case("fr-few-believe", F, "must_fail", "The merger lowered prices for consumers.",
     ["Few believe that the merger lowered prices for consumers."],
     "'few believe that': a belief, and a denied one")
case("fr-remains-seen", F, "must_fail", "The vaccine protects older adults.",
     ["It remains to be seen whether the vaccine protects older adults."],
     "'it remains to be seen whether' leaves it open")
case("fr-union-hopes", F, "must_fail", "The factory will hire 200 workers next year.",
     ["The union hopes that the factory will hire 200 workers next year."],
     "a hope, not a fact")
case("fr-residents-fear", F, "must_fail", "The dam will burst during the spring floods.",
     ["Residents fear that the dam will burst during the spring floods."],
     "a fear, not a fact")
case("fr-denied", F, "must_fail", "The airline sold passenger data.",
     ["A spokesperson denied that the airline sold passenger data."],
     "a denial")
case("fr-nobody-confirmed", F, "must_fail", "The ship sank near the coast.",
     ["Nobody has confirmed that the ship sank near the coast."],
     "unconfirmed: 'nobody has confirmed that'")
case("fr-engineers-doubt", F, "must_fail", "The tunnel can carry freight trains.",
     ["Engineers doubt that the tunnel can carry freight trains."],
     "a doubt")
case("fr-claim-false", F, "must_fail", "The lake is 300 metres deep.",
     ["The claim that the lake is 300 metres deep is false. It is 80 metres deep."],
     "the source calls the clause false (and gives another depth)")
case("fr-not-true-that", F, "must_fail", "The north bridge is closed to cyclists.",
     ["It is not true that the north bridge is closed to cyclists."],
     "negated frame 'it is not true that'")
case("fr-doubtful", F, "must_fail", "The orchestra will tour Japan next spring.",
     ["It is doubtful that the orchestra will tour Japan next spring."],
     "doubtful, any wording")
case("fr-rumour-noun", F, "must_fail", "The singer cancelled her autumn tour.",
     ["The rumour that the singer cancelled her autumn tour spread quickly online."],
     "a rumour's content, not a fact")
case("fr-according-neighbour", F, "must_fail", "The fire started in the kitchen.",
     ["According to a neighbour, the fire started in the kitchen."],
     "reported speech without the attribution (docs/judges.md lists 'According to')")
case("fr-quote-promised", F, "must_fail", "The museum will be free on Sundays.",
     ['"The museum will be free on Sundays," the director promised at the opening.'],
     "a quoted promise")
case("fr-let-us-assume", F, "must_fail", "The reactor runs at full power.",
     ["Let us assume that the reactor runs at full power. Then the cooling loop overheats."],
     "a supposition")
case("fr-critics-question", F, "must_fail", "The new tax raised revenue.",
     ["Critics question whether the new tax raised any revenue."],
     "'question whether'")
case("fr-who-would-believe", F, "must_fail", "The mayor paid for the party himself.",
     ["Who would believe that the mayor paid for the party himself."],
     "a rhetorical question without a question mark: it doubts")
case("fr-as-if", F, "must_fail", "The council approved the new parking fees.",
     ["As if the council ever approved the new parking fees. They were imposed by decree."],
     "sarcastic 'as if': denies it")
case("fr-imperative-book", F, "must_fail", "The venue is booked for 12 June.",
     ["Book the venue for 12 June and send the invitations."],
     "a bare imperative: an instruction, not a fact")
case("fr-plans-metro", F, "must_fail", "The city opened a second metro line in 2031.",
     ["The city plans to open a second metro line in 2031."],
     "a plan (and a future)")
case("fr-expected-board", F, "must_fail", "The board approved the dividend on Monday.",
     ["The board is expected to approve the dividend on Monday."],
     "an expectation")
case("fr-should-tests", F, "must_fail", "The drug will be sold in pharmacies.",
     ["Should the trials succeed, the drug will be sold in pharmacies."],
     "a condition without 'if' (docs name 'Should the talks fail')")
case("fr-unless-funding", F, "must_fail", "The library will close in March.",
     ["Unless new funding is found, the library will close in March."],
     "an 'unless' condition")
case("fr-asked-recall", F, "must_fail", "The company recalled the heaters.",
     ["The ministry asked the company to recall the heaters."],
     "asked for, not done")
case("fr-were-to-have", F, "must_fail", "Sales doubled by 2022.",
     ["Sales were to have doubled by 2022, but the plan was dropped."],
     "'was to have': it did not happen")
case("fr-about-to", F, "must_fail", "The bakery closed when the fire broke out.",
     ["The bakery was about to close when the fire broke out."],
     "'about to': it had not closed")
case("fr-counterfactual-had", F, "must_fail", "The crops survived the drought.",
     ["Had the pump not failed, the crops would have survived the drought."],
     "a counterfactual: they did not survive")
case("fr-would-have-opened", F, "must_fail", "The bridge opened in 2019.",
     ["The bridge would have opened in 2019 if the steel had arrived on time."],
     "'would have ... if': it did not open in 2019")
case("fr-wish-stadium", F, "must_fail", "The stadium was finished before the tournament.",
     ["The organisers wish the stadium had been finished before the tournament."],
     "a wish about the past: it was not finished")
case("fr-future-museum", F, "must_fail", "The maritime museum reopened in 2027.",
     ["The maritime museum will reopen in 2027."],
     "a future told as done")

# user turns that do not assert
case("fr-user-sarcasm", F, "must_fail", "Your train was on time this morning.",
     NEUTRAL, "sarcasm: the user means it was late",
     messages=user("Oh brilliant, my train was right on time this morning, as always. "
                   "I only missed the whole meeting."))
case("fr-user-irony-enjoyed", F, "must_fail", "You enjoyed waiting three hours at the counter.",
     NEUTRAL, "irony: 'Sure, I just loved ...' means the opposite",
     messages=user("Sure, I just loved waiting three hours at the counter. Best day ever."))
case("fr-user-request-refund", F, "must_fail", "Your 35 euros were refunded to your card.",
     NEUTRAL, "a bare imperative in a user turn asserts nothing",
     messages=user("Refund the 35 euros to my card today."))
case("fr-user-could-you", F, "must_fail", "You transferred 500 euros to your savings account.",
     NEUTRAL, "a request without a question mark ('Could you ...')",
     messages=user("Could you transfer 500 euros to my savings account"))
case("fr-user-planning", F, "must_fail", "You moved to Lisbon in September.",
     NEUTRAL, "a plan told as done",
     messages=user("I'm planning to move to Lisbon in September."))
case("fr-user-intend", F, "must_fail", "You cancelled your gym membership last week.",
     NEUTRAL, "an intention told as done",
     messages=user("I intend to cancel my gym membership next week."))
case("fr-user-wish", F, "must_fail", "You kept the receipt for the heater.",
     NEUTRAL, "a wish about the past: the user did not keep it",
     messages=user("I wish I had kept the receipt for the heater."))
case("fr-user-if-only", F, "must_fail", "You paid the invoice before the 5th.",
     NEUTRAL, "'if only I had': the user did not pay",
     messages=user("If only I'd paid the invoice before the 5th, there would be no late fee."))
case("fr-user-condition", F, "must_fail", "You returned the kettle.",
     NEUTRAL, "a condition: nothing returned yet",
     messages=user("If the kettle arrives damaged, I will return it."))
case("fr-user-landlord-claims", F, "must_fail", "You owe two months of rent.",
     NEUTRAL, "a report of someone else's claim",
     messages=user("My landlord claims I owe two months of rent."))
case("fr-user-quote-agent", F, "must_fail", "Your warranty claim was approved.",
     NEUTRAL, "the user quotes what an agent told them",
     messages=user('The agent on the phone told me "your warranty claim was approved".'))
case("fr-user-will-send", F, "must_fail", "You sent the signed contract on Friday.",
     NEUTRAL, "a future told as done",
     messages=user("I will send the signed contract on Friday."))
case("fr-user-never-said", F, "must_fail", "You broke the screen.",
     NEUTRAL, "a negated frame: the user denies saying it",
     messages=user("I never said that I broke the screen. It arrived cracked."))
case("fr-user-afaik", F, "must_fail", "Your policy covers flood damage.",
     NEUTRAL, "a hedge the docs name ('as far as I know')",
     messages=user("As far as I know, my policy covers flood damage."))
case("fr-user-hope", F, "must_fail", "Your visa was extended until March.",
     NEUTRAL, "a hope",
     messages=user("I really hope my visa was extended until March."))

# cascade_verbatim before an LLM: the claim is found whole, after a frame that does not assert
case("fr-verbatim-hope", F, "must_fail", "The bank will cut rates in July.",
     ["Investors hope that the bank will cut rates in July."],
     "cascade_verbatim: found whole after 'hope that' (docs: no qualifier before it left out)",
     options={"cascade_verbatim": True}, judges=["rules", "llm"],
     truth={"The bank will cut rates in July.": "unsupported"})
case("fr-verbatim-false-that", F, "must_fail", "The river froze in January.",
     ["It is false that the river froze in January."],
     "cascade_verbatim: found whole after 'It is false that'",
     options={"cascade_verbatim": True}, judges=["rules", "llm"],
     truth={"The river froze in January.": "unsupported"})
case("fr-verbatim-nobody-prove", F, "must_fail", "The painting is a genuine Vermeer.",
     ["Nobody can prove that the painting is a genuine Vermeer."],
     "cascade_verbatim: found whole after 'Nobody can prove that'",
     options={"cascade_verbatim": True}, judges=["rules", "llm"],
     truth={"The painting is a genuine Vermeer.": "unsupported"})
case("fr-verbatim-wish", F, "must_fail", "The trains ran on time in December.",
     ["Commuters wish the trains ran on time in December."],
     "cascade_verbatim: found whole after 'wish'",
     options={"cascade_verbatim": True}, judges=["rules", "llm"],
     truth={"The trains ran on time in December.": "unsupported"})

# judge replies whose reason argues the opposite of their verdict (docs/failure-behaviour.md)
for script, what in (("argue_open", "opens with 'Unsupported:'"),
                     ("argue_end", "comes to '..., so this statement is unsupported'"),
                     ("argue_contra", "says passage [1] contradicts the statement"),
                     ("argue_value", "says passage [1] gives a different date")):
    case(f"fr-reply-{script}", F, "must_fail", "The harbour market will reopen on 3 June.",
         ["The council hopes the harbour market will reopen on 3 June."],
         f"the judge says supported but its reason {what}: docs read it as unreadable, not supported",
         judges=["llm"], script=script)

# true cases: frames that do assert
case("fr-true-found", F, "must_pass", "The charity spent 40% of its budget on salaries.",
     ["The audit found that the charity spent 40% of its budget on salaries."],
     D_FACT)
case("fr-true-showed", F, "must_pass", "Regular walking lowers blood pressure.",
     ["The study showed that regular walking lowers blood pressure."],
     D_FACT)
case("fr-true-fronted-year", F, "must_pass", "The brewery moved to Ghent in 2004.",
     ["In 2004, the brewery moved to Ghent."],
     D_FRONT)
case("fr-true-fronted-phrase", F, "must_pass", "Heavy snow closed the mountain pass last winter.",
     ["Last winter, heavy snow closed the mountain pass."],
     'design/local-judge.md: "a phrase of place or time said first up to its comma"')
case("fr-true-keep-attribution", F, "must_pass", "Police say the driver was speeding.",
     ["Police say the driver was speeding."],
     D_ATTR)
case("fr-true-it-is-true", F, "must_pass", "The glacier lost 12 metres of ice last summer.",
     ["It is true that the glacier lost 12 metres of ice last summer."],
     CAREFUL + ": 'It is true that' asserts the clause")
case("fr-true-we-confirm", F, "must_pass", "The warehouse in Leeds closed on 3 March.",
     ["We confirm that the warehouse in Leeds closed on 3 March."],
     CAREFUL + ": a source's 'We confirm that' asserts it")
case("fr-true-indeed", F, "must_pass", "The vaccine halved hospital admissions.",
     ["Indeed, the vaccine halved hospital admissions."],
     CAREFUL + ": 'Indeed,' asserts; docs allow 'a phrase that ties the sentence to the one before'")
case("fr-true-after-past", F, "must_pass", "Ruth Adler moved to Vienna.",
     ["After the war, Ruth Adler moved to Vienna."],
     'design/local-judge.md: "a time before an event in the past (\'After the war, Smith moved to Paris\': he moved)"')
case("fr-true-user-yesterday", F, "must_pass", "You renewed your passport at the town hall yesterday.",
     NEUTRAL, D_USER + "; a fronted adverb moved",
     messages=user("Yesterday I renewed my passport at the town hall."))
case("fr-true-user-plain", F, "must_pass", "Your laptop was delivered without a charger.",
     NEUTRAL, D_USER,
     messages=user("My laptop was delivered without a charger."))
case("fr-true-verbatim-found", F, "must_pass", "The river flooded the old town in 1953.",
     ["The survey found that the river flooded the old town in 1953."],
     D_FACT + "; with cascade_verbatim and an honest LLM",
     options={"cascade_verbatim": True}, judges=["rules", "llm"])
case("fr-true-reply-quoting", F, "must_pass", "The bridge reopened on 4 May.",
     ["The bridge reopened on 4 May, and it was not closed again that year."],
     'docs/failure-behaviour.md: "a reason that reports the passages\' words (\'[1] says it was '
     'not supported by the council\', \'nothing contradicts it\') is no argument"',
     judges=["llm"], script="quoting")
case("fr-true-verbatim-plain", F, "must_pass", "The ferry to Hel leaves at 07:15 on weekdays.",
     ["The ferry to Hel leaves at 07:15 on weekdays. Tickets are sold on board."],
     'docs/judges.md: "a claim a passage states word for word passes" (cascade_verbatim)',
     options={"cascade_verbatim": True}, judges=["rules", "llm"])


# ---------------------------------------------------------------------------------------------
# 2. one_statement: support that would need two statements joined
# ---------------------------------------------------------------------------------------------
O = "one_statement"
S_RACE = ["Lena won the sprint and Tomas won the marathon."]
S_LINES = ["The red line opened in 1996 and the green line opened in 2004."]

case("os-swap-subject", O, "must_fail", "Lena won the marathon.", S_RACE,
     "Lena's win and the marathon are in two clauses")
case("os-swap-year", O, "must_fail", "The red line opened in 2004.", S_LINES,
     "the year of the other clause")
case("os-while-games", O, "must_fail", "Oslo hosted the 1952 Summer Games.",
     ["Oslo hosted the 1952 Winter Games, while Helsinki hosted the 1952 Summer Games."],
     "clauses joined by 'while'")
case("os-semicolon", O, "must_fail", "Maria teaches history.",
     ["Maria teaches chemistry; her brother teaches history."],
     "clauses joined by ';'")
case("os-wing-rebuilt", O, "must_fail", "The north wing was rebuilt in 1905.",
     ["The north wing was built in 1820 and the south wing was rebuilt in 1905."],
     "verb and year from the other wing's clause")
case("os-reverse-rounds", O, "must_fail", "Smith defeated Jones in the final.",
     ["Smith defeated Jones in the first round, and Jones defeated Smith in the final."],
     "both orders are in the sentence, with different rounds")
case("os-price-swap", O, "must_fail", "Pears cost 2 euros a kilo.",
     ["Apples cost 2 euros a kilo and pears cost 3 euros a kilo."],
     "the apples' price given to pears")
case("os-two-sentences", O, "must_fail", "The ferry leaves from Pier 5.",
     ["The ferry leaves from Pier 3. The airport bus leaves from Pier 5."],
     "two sentences")
case("os-two-sources", O, "must_fail", "Anne Holt founded the café.",
     ["Anne Holt founded the bakery on Mill Lane.", "Peter Vik founded the café by the station."],
     "two sources")
case("os-but-gates", O, "must_fail", "The east gate is locked.",
     ["The east gate is open but the west gate is locked."],
     "clauses joined by 'but'")
case("os-weather", O, "must_fail", "Snow fell in Cork on Tuesday.",
     ["Rain fell in Cork on Monday and snow fell in Sligo on Tuesday."],
     "place of one clause, weather and day of the other")
case("os-respectively", O, "must_fail", "Ana scored 4 points.",
     ["Ana and Ben scored 7 and 4 points respectively."],
     "'respectively' pairs Ana with 7")
case("os-hired-laid-off", O, "must_fail", "The company hired 300 engineers in 2021.",
     ["The company hired 300 engineers in 2019 and laid off 300 cashiers in 2021."],
     "the year of the other clause")
case("os-doctors", O, "must_fail", "Dr Patel treats adults.",
     ["Dr Patel treats children; Dr Okafor treats adults."],
     "the other doctor's patients")
case("os-pronoun-next", O, "must_fail", "Vera bought the farm back in 2010.",
     ["Vera sold the farm in 1990. Her son bought it back in 2010."],
     "the son bought it back, the next sentence")
case("os-deluxe-kit", O, "must_fail", "The basic kit includes a drill.",
     ["The basic kit includes a saw, and the deluxe kit includes a drill."],
     "the deluxe kit's item given to the basic kit")
case("os-list-items", O, "must_fail", "The shop opens at 10:00 on Mondays.",
     ["Opening hours:\n- Mondays: 09:00 to 17:00\n- Saturdays: 10:00 to 14:00"],
     "the Saturday item's hour on the Monday item")
case("os-gate-digits", O, "must_fail", "Gate 9 closes at 14:40.",
     ["Gate 14 closes at 09:40."],
     "the gate number and the time's hour swapped")
case("os-timestamp-sensor", O, "must_fail", "Sensor 32 logged the alarm.",
     ["The alarm was logged at 2024-06-18 07:32 by sensor 12."],
     "the minutes of the timestamp read as the sensor's number")
case("os-timestamp-count", O, "must_fail", "18 members attended the meeting.",
     ["The meeting on 2024-06-18 was attended by 12 members."],
     "the day of an ISO date read as a count")
case("os-json-two-records", O, "must_fail", "Flight SK 401 departs on 5 August 2025.",
     [json.dumps([{"flight": "SK 401", "departs": "2025-08-03"},
                  {"flight": "SK 402", "departs": "2025-08-05"}])],
     "the other record's date (JSON source)")
case("os-json-field-swap", O, "must_fail", "The price of the Kettle K2 is €8.",
     [json.dumps({"product": "Kettle K2", "price_eur": 35, "accessory": "Descaler",
                  "accessory_price_eur": 8})],
     "the accessory's price given to the product")
case("os-json-people", O, "must_fail", "The city of Karl Dahl is Bergen.",
     [json.dumps({"residents": [{"name": "Anna Berg", "city": "Bergen"},
                                {"name": "Karl Dahl", "city": "Tromsø"}]})],
     "Anna's city given to Karl")
ORDER_B417 = {"order_id": "B-417", "items": [
    {"name": "Desk lamp", "qty": 2, "price": {"amount": 19.99, "currency": "EUR"}},
    {"name": "Lamp shade", "qty": 1, "price": {"amount": 7.5, "currency": "EUR"}}]}
case("os-tool-sibling-price", O, "must_fail", "The price of the desk lamp is €7.50.",
     NEUTRAL, "a sibling item's price",
     messages=tool_chat("What did I order in B-417?", "get_order", ORDER_B417,
                        args={"order_id": "B-417"}))
case("os-tool-sibling-qty", O, "must_fail", "You ordered 2 lamp shades.",
     NEUTRAL, "a sibling item's quantity",
     messages=tool_chat("What did I order in B-417?", "get_order", ORDER_B417,
                        args={"order_id": "B-417"}))
case("os-tool-two-orders", O, "must_fail", "Order C-12 was delivered on 9 May 2025.",
     NEUTRAL, "the other order's delivery date",
     messages=tool_chat("Where are my orders?", "list_orders", {"orders": [
         {"order_id": "C-11", "status": "delivered", "delivered_on": "2025-05-09"},
         {"order_id": "C-12", "status": "delivered", "delivered_on": "2025-05-14"}]}))
case("os-tool-nested-roles", O, "must_fail", "Your account manager is Ida Sund.",
     NEUTRAL, "the customer's name given to the manager",
     messages=tool_chat("Who manages my account?", "get_account", {
         "customer": {"name": "Ida Sund", "tier": "gold"},
         "account_manager": {"name": "Rolf Eng"}}))
case("os-tool-from-to", O, "must_fail",
     "Your transfer of 250 euros from account Checking to account Savings is completed.",
     NEUTRAL, "from and to swapped (docs list it as not yet read)",
     messages=tool_chat("Did my transfer go through?", "get_transfer", {
         "status": "completed", "from_account": "Savings", "to_account": "Checking",
         "amount": 250, "currency": "EUR"}))
case("os-table-rows", O, "must_fail", "Lyon has 9 wins.",
     ["| Team | Wins |\n| --- | --- |\n| Lyon | 12 |\n| Nice | 9 |"],
     "the other row's value")
case("os-three-clauses", O, "must_fail", "Kim painted the kitchen in May.",
     ["Kim painted the hall in April, Jo painted the kitchen in May, and Lu tiled the bath."],
     "the second clause's room and month with the first clause's painter")

# true cases: one statement holds the whole claim
case("os-true-second-clause", O, "must_pass", "Tomas won the marathon.", S_RACE, D_COORD)
case("os-true-second-year", O, "must_pass", "The green line opened in 2004.", S_LINES, D_COORD)
case("os-true-shared-subject", O, "must_pass", "The bakery closes at 18:00.",
     ["The bakery opens at 07:00 and closes at 18:00."], D_COORD)
case("os-true-but-clause", O, "must_pass", "The west gate is locked.",
     ["The east gate is open but the west gate is locked."],
     CAREFUL + ": the clause after 'but' states it whole")
case("os-true-list-reordered", O, "must_pass",
     "The kit contains a tape measure, a hammer and a spirit level.",
     ["The kit contains a hammer, a spirit level and a tape measure."],
     'design/local-judge.md: "a list reordered ... a list\'s items sorted"')
case("os-true-apposition-gate", O, "must_pass", "Gate 14 closes at 09:40.",
     ["Gate 14, next to the duty-free shop, closes at 09:40."], D_APPOS)
case("os-true-sensor-active", O, "must_pass", "Sensor 12 logged the alarm.",
     ["The alarm was logged at 2024-06-18 07:32 by sensor 12."],
     D_PASSIVE + '; "a date or number of another kind may be skipped"')
case("os-true-json-record", O, "must_pass", "Flight SK 402 departs on 5 August 2025.",
     [json.dumps([{"flight": "SK 401", "departs": "2025-08-03"},
                  {"flight": "SK 402", "departs": "2025-08-05"}])],
     D_JSON)
case("os-true-tool-item", O, "must_pass", "The price of the lamp shade is €7.50.",
     NEUTRAL, D_ITEM + "; 7.5 written 7.50",
     messages=tool_chat("What did I order in B-417?", "get_order", ORDER_B417,
                        args={"order_id": "B-417"}))
case("os-true-tool-item-qty", O, "must_pass", "You ordered 2 desk lamps.",
     NEUTRAL, D_ITEM,
     messages=tool_chat("What did I order in B-417?", "get_order", ORDER_B417,
                        args={"order_id": "B-417"}))
case("os-true-tool-order-date", O, "must_pass", "Order C-12 was delivered on 14 May 2025.",
     NEUTRAL, D_JSON + "; " + D_ITEM,
     messages=tool_chat("Where are my orders?", "list_orders", {"orders": [
         {"order_id": "C-11", "status": "delivered", "delivered_on": "2025-05-09"},
         {"order_id": "C-12", "status": "delivered", "delivered_on": "2025-05-14"}]}))
case("os-true-json-field", O, "must_pass", "The accessory price is €8.",
     [json.dumps({"product": "Kettle K2", "price_eur": 35, "accessory": "Descaler",
                  "accessory_price_eur": 8})],
     D_JSON + '; design/agents.md: "a number takes the unit its key ends with (warranty_months)"; '
     'a currency code as that unit (`_eur`): ' + CAREFUL)
case("os-true-two-sources", O, "must_pass", "Peter Vik founded the café by the station.",
     ["Anne Holt founded the bakery on Mill Lane.", "Peter Vik founded the café by the station."],
     'docs/judges.md: "Supported only when one evidence clause states the claim" (it does)')


# ---------------------------------------------------------------------------------------------
# 3. record_standing: a record whose status says the thing is not done
# ---------------------------------------------------------------------------------------------
R = "record_standing"


def rec(cid, expect, text, result, why, *, name="get_order", question="What is the status?",
        fmt="openai", is_error=False, args=None):
    case(cid, R, expect, text, NEUTRAL, why,
         messages=tool_chat(question, name, result, fmt=fmt, is_error=is_error, args=args))


rec("rs-shipping-pending", "must_fail", "Your order C-1201 has shipped.",
    {"order_id": "C-1201", "shipping_status": "pending", "item": "Standing desk"},
    "shipping status is pending")
rec("rs-refund-requested", "must_fail", "You were refunded £42.",
    {"refund": {"status": "requested", "amount": 42.0, "currency": "GBP"}},
    "a refund only requested", name="get_refund")
rec("rs-estimated-delivery", "must_fail", "Your parcel was delivered on 12 September 2025.",
    {"parcel": "P-301", "estimated_delivery": "2025-09-12"},
    "an estimated date told as done", name="track_parcel")
rec("rs-scheduled-appt", "must_fail", "You saw Dr Lund on 2 October 2025.",
    {"appointment": {"status": "scheduled", "date": "2025-10-02", "doctor": "Dr Lund"}},
    "a scheduled appointment told as held", name="get_appointment")
rec("rs-payment-failed", "must_fail", "Your payment of €120 was received.",
    {"payment": {"status": "failed", "amount": 120, "currency": "EUR"}},
    "a failed status (docs: an error result)", name="get_payment")
rec("rs-draft-article", "must_fail", "The Spring menu article was published.",
    {"title": "Spring menu", "publish_state": "draft"},
    "a draft, not published", name="get_article")
rec("rs-confirmation-cancelled", "must_fail", "Your booking at Hotel Nord is confirmed.",
    {"hotel": "Hotel Nord", "confirmation_status": "cancelled", "nights": 3},
    "the confirmation status is cancelled", name="get_booking")
rec("rs-dispatch-on-hold", "must_fail", "Your order was dispatched.",
    {"order_id": "D-71", "dispatch": "on hold"},
    "dispatch on hold", name="get_order")
rec("rs-quote-not-order", "must_fail", "You ordered the solar panel kit for a total of €3,400.",
    {"order": {"kind": "quote", "product": "Solar panel kit",
               "total": {"amount": 3400, "currency": "EUR"}}},
    "the record is a quote (kind: quote), not an order placed", name="get_quote")
rec("rs-ready-to-collect", "must_fail", "You collected order D-33.",
    {"order": "D-33", "ready_to_collect": True},
    "ready to collect, not collected (docs: 'shipped' from ready_to_ship)")
rec("rs-ready-for-pickup", "must_fail", "Your order D-35 was picked up.",
    {"order": "D-35", "ready_for_pickup": "yes"},
    "ready for pickup, not picked up")
rec("rs-insured-no", "must_fail", "Parcel P-77 is insured.",
    {"parcel": "P-77", "insured": "no"},
    "insured: no", name="track_parcel")
rec("rs-signature-false", "must_fail", "A signature is required for parcel P-80.",
    {"parcel": "P-80", "signature_required": False},
    "signature_required is false", name="track_parcel")
rec("rs-delivered-no", "must_fail", "Your order E-14 was delivered.",
    {"order_id": "E-14", "delivered": "no", "carrier": "DPD"},
    "delivered: no")
rec("rs-refundable-false", "must_fail", "Ticket T-9 is refundable.",
    {"ticket": "T-9", "refundable": False, "fare": "Saver"},
    "refundable is false", name="get_ticket")
rec("rs-paid-zero", "must_fail", "Invoice 88 is paid.",
    {"invoice": 88, "paid": 0, "amount_due": 140},
    "paid: 0 (docs list a number as yes/no as not read)", name="get_invoice")
rec("rs-cancellation-pending", "must_fail", "Your subscription was cancelled on 11 February 2025.",
    {"subscription": "Plus", "cancellation": {"requested_at": "2025-02-11", "status": "pending"}},
    "cancellation pending", name="get_subscription")
rec("rs-planned-departure", "must_fail", "The MS Fjord departed on 1 July 2025.",
    {"ship": "MS Fjord", "planned_departure": "2025-07-01T08:00", "actual_departure": None},
    "planned departure; actual is null", name="get_voyage")
rec("rs-scheduled-maintenance", "must_fail", "Maintenance was carried out on 20 May 2025.",
    {"asset": "Lift 2", "scheduled_maintenance": "2025-05-20"},
    "scheduled, not carried out", name="get_asset")
rec("rs-awaiting-payment", "must_fail", "Your order F-2 is paid.",
    {"order_id": "F-2", "status": "awaiting_payment"},
    "awaiting payment")
rec("rs-transfer-not-sent", "must_fail", "Your transfer was sent.",
    {"transfer_id": "TR-5", "transfer_status": "not_sent", "amount": 500, "currency": "CHF"},
    "not_sent", name="get_transfer")
rec("rs-return-requested", "must_fail", "Your jacket was returned.",
    {"item": "jacket", "status": "return_requested"},
    "return requested, not returned", name="get_return")
rec("rs-error-key", "must_fail", "You were charged $60.",
    {"error": "card declined", "amount": 60, "currency": "USD"},
    "an error result (docs: evidence of the error only)", name="charge_card")
rec("rs-anthropic-is-error", "must_fail", "Your booking for 2 guests is confirmed.",
    "Booking confirmed for 2 guests",
    "is_error true: evidence of the error only", name="book_table", fmt="anthropic",
    is_error=True)
rec("rs-text-error", "must_fail", "Your table for 4 at 19:30 is reserved.",
    "Error: the table for 4 at 19:30 could not be reserved",
    "a text that opens with 'Error'", name="book_table")
rec("rs-ok-false", "must_fail", "Your subscription was renewed.",
    {"ok": False, "message": "Subscription renewed"},
    "'ok': false", name="renew_subscription")
rec("rs-previous-status", "must_fail", "The status of order G-4 is shipped.",
    {"order_id": "G-4", "previous_status": "shipped", "status": "returned"},
    "the previous status (docs: told apart by a word of the key)")
rec("rs-arguments-only", "must_fail", "Order E-5 was cancelled.",
    {"received": True, "request_id": "R-881"},
    "only the call's arguments say cancel (docs: arguments never read)",
    name="cancel_order", args={"order_id": "E-5", "action": "cancel"})
rec("rs-eta", "must_fail", "Your package arrived on 3 April 2025.",
    {"package": "K-19", "eta": "2025-04-03"},
    "an ETA is an estimate", name="track_parcel")
rec("rs-forecast", "must_fail", "12 mm of rain fell in Bergen on 10 June 2025.",
    {"city": "Bergen", "forecast": {"date": "2025-06-10", "rain_mm": 12}},
    "a forecast told as what happened", name="get_weather")
rec("rs-renews-on", "must_fail", "Your membership renewed on 1 December 2025.",
    {"membership": "Gold", "renews_on": "2025-12-01"},
    "renews_on is a future (docs list the tense as not read)", name="get_membership")
rec("rs-approved-null", "must_fail", "Your loan was approved.",
    {"loan_id": "L-7", "applied": True, "approved": None},
    "approved is null: says nothing", name="get_loan")
rec("rs-item-shipped-false", "must_fail", "Item X2 shipped.",
    {"order_status": "partially_shipped",
     "items": [{"sku": "X1", "shipped": True}, {"sku": "X2", "shipped": False}]},
    "this item's own shipped is false; its sibling's is true")
rec("rs-to-be-shipped", "must_fail", "Your order H-1 shipped.",
    {"order_id": "H-1", "status": "to_be_shipped"},
    "to be shipped (docs list it as not read)")
rec("rs-attempted", "must_fail", "Your parcel P-90 was delivered.",
    {"parcel": "P-90", "delivery_attempted": True, "delivered": False},
    "an attempt, and delivered is false", name="track_parcel")
case("rs-json-source-postponed", R, "must_fail", "The Harbour concert took place on 16 August 2025.",
     [json.dumps({"event": "Harbour concert", "status": "postponed", "date": "2025-08-16"})],
     "postponed (JSON as a source)")
rec("rs-approval-requested", "must_fail", "Your leave from 4 to 8 August was approved.",
    {"leave": {"start": "2025-08-04", "end": "2025-08-08", "approval": "requested"}},
    "approval requested", name="get_leave")

# true cases
rec("rs-true-shipped", "must_pass", "Your order C-1202 shipped with GLS on 4 March 2025.",
    {"order_id": "C-1202", "status": "shipped", "carrier": "GLS", "shipped_on": "2025-03-04"},
    'docs/usage.md example: "Your order 7731 shipped with DHL on May 2, 2026" supported')
rec("rs-true-delivered", "must_pass", "Order F-9 was delivered on June 1, 2025.",
    {"order_id": "F-9", "status": "delivered", "delivered_on": "2025-06-01"},
    D_JSON)
rec("rs-true-nested-price", "must_pass", "The price of the kettle in order G-12 was €24.50.",
    {"order_id": "G-12", "items": [{"name": "Kettle", "qty": 1,
                                    "price": {"amount": 24.5, "currency": "EUR"}}]},
    D_ITEM + '; "a currency field reaches the amounts beside and below it"')
rec("rs-true-refund-completed", "must_pass", "Your refund of £42.00 is completed.",
    {"refund": {"status": "completed", "amount": 42, "currency": "GBP"}},
    D_JSON, name="get_refund")
rec("rs-true-payment-succeeded", "must_pass", "Your payment of $1,250 succeeded.",
    {"payment": {"status": "succeeded", "amount": 1250, "currency": "USD"}},
    D_JSON, name="get_payment")
rec("rs-true-insured-yes", "must_pass", "Parcel P-78 is insured.",
    {"parcel": "P-78", "insured": "yes"},
    'docs/design/agents.md: "Yes and no are read as such"', name="track_parcel")
rec("rs-true-refundable-true", "must_pass", "Ticket T-10 is refundable.",
    {"ticket": "T-10", "refundable": True, "fare": "Flex"},
    'docs/design/agents.md: "Yes and no are read as such: a boolean ..."', name="get_ticket")
rec("rs-true-ready-said", "must_pass", "Order D-34 is ready to collect.",
    {"order": "D-34", "ready_to_collect": True},
    CAREFUL + ": says what the field says")
rec("rs-true-pending-said", "must_pass", "The status of order C-1203 is pending.",
    {"order_id": "C-1203", "status": "pending"},
    CAREFUL + ": says the status as it is")
rec("rs-true-error-said", "must_pass", "I couldn't charge your card: it was declined.",
    {"error": "card declined", "amount": 60, "currency": "USD"},
    'docs/usage.md: "An error result is evidence of the error ... \'I couldn\'t cancel it: it has already shipped\' is supported by it"',
    name="charge_card")
rec("rs-true-unit-key", "must_pass", "The distance of the Coastal loop route is 12.5 kilometres.",
    {"route": "Coastal loop", "distance_km": 12.5},
    'docs/failure-behaviour.md: "keys that carry units (humidity_pct, amount_cents, warranty_months)"',
    name="get_route")
rec("rs-true-amount-cents", "must_pass", "The amount is $19.99.",
    {"invoice": "IN-3", "amount_cents": 1999, "currency": "USD"},
    'docs/failure-behaviour.md: "keys that carry units (... amount_cents ...)"', name="get_invoice")
rec("rs-true-anthropic-cancelled", "must_pass", "Booking H-88 is cancelled.",
    {"booking": "H-88", "status": "cancelled"},
    'docs/usage.md: Anthropic\'s format "(tool_use parts, then tool_result parts in the next user turn)"',
    name="cancel_booking", fmt="anthropic")
rec("rs-true-current-status", "must_pass", "The status of order G-5 is returned.",
    {"order_id": "G-5", "previous_status": "shipped", "status": "returned"},
    'docs/design/agents.md: fields "told apart by the words that differ" (the claim says plain status)')
case("rs-true-json-source", R, "must_pass", "The Harbour concert is at Pier 4 on 16 August 2025.",
     [json.dumps({"event": "Harbour concert", "venue": "Pier 4", "date": "2025-08-16"})],
     'docs/usage.md: "JSON is read field by field, whether a tool returned it or it is a source"')
rec("rs-true-item-shipped", "must_pass", "Item X1 shipped.",
    {"order_status": "partially_shipped",
     "items": [{"sku": "X1", "shipped": True}, {"sku": "X2", "shipped": False}]},
    D_ITEM + '; "Yes and no are read as such: a boolean"')
rec("rs-true-decimal-comma", "must_pass", "Your balance is €1,024.50.",
    {"account": "A-2", "balance": {"amount": 1024.5, "currency": "EUR"}},
    D_JSON, name="get_balance")


# ---------------------------------------------------------------------------------------------
# 4. actor: who did it changed
# ---------------------------------------------------------------------------------------------
A = "actor"
case("ac-landlord-you", A, "must_fail", "You repaired the boiler on Tuesday.",
     ["The landlord repaired the boiler on Tuesday."],
     "the landlord's act told as the reader's")
case("ac-user-neighbour-paid", A, "must_fail", "You paid the plumber 90 euros.",
     NEUTRAL, "the neighbour's act told as the user's",
     messages=user("My neighbour paid the plumber 90 euros for the leak."))
case("ac-user-sister-cancelled", A, "must_fail", "You cancelled the booking.",
     NEUTRAL, "the sister's act",
     messages=user("My sister cancelled the booking without asking me."))
case("ac-user-courier-left", A, "must_fail", "You left the parcel at the door.",
     NEUTRAL, "the courier's act",
     messages=user("The courier left the parcel at my door."))
case("ac-user-i-sent-you", A, "must_fail", "We sent you the photos on Monday.",
     NEUTRAL, "the user sent them to us, not we to them",
     messages=user("I sent you the photos on Monday."))
case("ac-user-you-charged", A, "must_fail", "You charged us twice for the subscription.",
     NEUTRAL, "'you charged me' said back must be 'we charged you'",
     messages=user("You charged me twice for the subscription."))
case("ac-user-owe-reversed", A, "must_fail", "The gym owes you 40 pounds.",
     NEUTRAL, "the user owes the gym, not the reverse",
     messages=user("I owe the gym 40 pounds for last month."))
case("ac-they-we", A, "must_fail", "We moved the clinic to Harbour Street in 2021.",
     ["The health board moved the clinic to Harbour Street in 2021."],
     "'we' for the health board")
case("ac-partners-we", A, "must_fail", "We shipped the replacement units in May.",
     ["Our partners shipped the replacement units in May."],
     "'we' for 'our partners'")
case("ac-her-your", A, "must_fail", "Your account was closed on 2 June.",
     ["Her account was closed on 2 June after three warnings."],
     "'her account' told as 'your account'")
case("ac-user-wife-account", A, "must_fail", "Your account was locked yesterday.",
     NEUTRAL, "the wife's account",
     messages=user("My wife's account was locked yesterday."))
case("ac-user-son-laptop", A, "must_fail", "Your laptop was stolen from the car.",
     NEUTRAL, "the son's laptop",
     messages=user("My son's laptop was stolen from the car."))
case("ac-add-agent", A, "must_fail", "The intern deleted the files on Friday.",
     ["The files were deleted on Friday."],
     "the passive hides the agent; the claim names one")
case("ac-agent-changed", A, "must_fail", "The files were deleted by the manager on Friday.",
     ["The files were deleted by the intern on Friday."],
     "another agent")
case("ac-dismissed-voice", A, "must_fail", "Nadia was dismissed in March.",
     ["Nadia dismissed her deputy in March."],
     "done by her read as done to her")
case("ac-sued-swap", A, "must_fail", "The builder sued the bank.",
     ["The bank sued the builder over the delays."],
     "roles swapped")
case("ac-sued-passive-swap", A, "must_fail", "The builder sued the bank.",
     ["The builder was sued by the bank."],
     "passive read with roles swapped")
case("ac-user-hotel-cancelled", A, "must_fail", "You cancelled your reservation.",
     NEUTRAL, "the hotel cancelled it",
     messages=user("The hotel cancelled my reservation two days before arrival."))
case("ac-user-refunded-by", A, "must_fail", "You refunded the airline.",
     NEUTRAL, "the airline refunded the user",
     messages=user("I was refunded by the airline last week."))
case("ac-nordic-team", A, "must_fail", "Our engineers built the bridge.",
     ["The Nordic team built the bridge; our engineers only inspected it."],
     "the builder changed")
case("ac-council-we", A, "must_fail", "We raised parking fees in January.",
     ["The council raised parking fees in January."],
     "'we' for the council")
case("ac-mayors-brother", A, "must_fail", "The mayor owns the Grand Hotel.",
     ["The mayor's brother owns the Grand Hotel."],
     "the brother, a noun phrase about someone else")
case("ac-film-about", A, "must_fail", "Rosa Keller won the jury prize.",
     ["A documentary about Rosa Keller won the jury prize."],
     "a film about her won")
case("ac-company-that-acquired", A, "must_fail", "Brightline laid off 200 staff.",
     ["The company that acquired Brightline laid off 200 staff."],
     "the acquirer laid off staff")
case("ac-coach", A, "must_fail", "Ingrid broke the national record.",
     ["Ingrid's coach broke the national record in 1999."],
     "her coach broke it")
case("ac-praised-swap", A, "must_fail", "The student praised the teacher.",
     ["The student was praised by the teacher."],
     "the passive's roles swapped")
case("ac-user-husband-booked", A, "must_fail", "You booked the flight to Rome.",
     NEUTRAL, "the husband booked it",
     messages=user("My husband booked the flight to Rome."))
case("ac-user-dog-bit", A, "must_fail", "Your dog bit your daughter.",
     NEUTRAL, "the neighbours' dog",
     messages=user("Our neighbours' dog bit my daughter on Sunday."))
case("ac-user-previous-owner", A, "must_fail", "You painted the fence green.",
     NEUTRAL, "the previous owner painted it",
     messages=user("The previous owner painted the fence green."))
case("ac-user-asked-email", A, "must_fail", "We emailed you the invoice.",
     NEUTRAL, "the user asked us to; no one said we did",
     messages=user("I asked you to email me the invoice."))
case("ac-tool-cancelled-by", A, "must_fail", "You cancelled order J-2.",
     NEUTRAL, "the merchant cancelled it",
     messages=tool_chat("Why was J-2 cancelled?", "get_order",
                        {"order_id": "J-2", "status": "cancelled", "cancelled_by": "merchant"}))
case("ac-tool-sender", A, "must_fail", "The sender is Bo Li.",
     NEUTRAL, "docs: 'the sender is Bob' where sender is Alice is a conflict",
     messages=tool_chat("Who sent the money?", "get_payment", {
         "sender": "Alice Ng", "recipient": "Bo Li", "amount": 75, "currency": "USD"}))
case("ac-tool-relation", A, "must_fail", "Bo Li sent $75 to Alice Ng.",
     NEUTRAL, "sender and recipient swapped (docs list the side of a relation as not read)",
     messages=tool_chat("Who sent the money?", "get_payment", {
         "sender": "Alice Ng", "recipient": "Bo Li", "amount": 75, "currency": "USD"}))
case("ac-companies-swap", A, "must_fail", "Tom Aas's company hired Eva Lie.",
     ["Eva Lie's company hired Tom Aas in 2018."],
     "roles through a possessive swapped")
case("ac-discovered-named", A, "must_fail", "A team in Kyoto discovered the enzyme.",
     ["Researchers at Uppsala discovered the enzyme; a team in Kyoto later named it."],
     "the namer given the discovery")
case("ac-user-son-scored", A, "must_fail", "Your son scored the winning goal.",
     NEUTRAL, "the user scored it, not the son",
     messages=user("I scored the winning goal while my son watched."))

# true cases
case("ac-true-passive", A, "must_pass", "The boiler was repaired by the landlord on Tuesday.",
     ["The landlord repaired the boiler on Tuesday."], D_PASSIVE)
case("ac-true-passive-no-agent", A, "must_pass", "The boiler was repaired on Tuesday.",
     ["The landlord repaired the boiler on Tuesday."],
     'design/local-judge.md: "a passive that leaves its agent out ... the claim says less than the source"')
case("ac-true-user-paid", A, "must_pass", "You paid the plumber 90 euros for the leak.",
     NEUTRAL, D_USER,
     messages=user("I paid the plumber 90 euros for the leak."))
case("ac-true-user-charged", A, "must_pass", "We charged you twice for the subscription.",
     NEUTRAL, D_SAIDBACK,
     messages=user("You charged me twice for the subscription."))
case("ac-true-user-owe", A, "must_pass", "You still owe us 60 euros.",
     NEUTRAL, D_SAIDBACK + '; design/fail-closed.md: "\'I owe you $200\' grounds \'You owe us $200\'"',
     messages=user("I still owe you 60 euros."))
case("ac-true-user-account", A, "must_pass", "Your account was locked yesterday.",
     NEUTRAL, D_USER,
     messages=user("My account was locked yesterday."))
case("ac-true-of", A, "must_pass", "The coach of Ingrid broke the national record in 1999.",
     ["Ingrid's coach broke the national record in 1999."],
     'docs/judges.md: "\'X of Y\' and \'Y\'s X\'"')
case("ac-true-agent-active", A, "must_pass", "The intern deleted the files on Friday.",
     ["The files were deleted by the intern on Friday."], D_PASSIVE)
case("ac-true-sued-passive", A, "must_pass", "The builder was sued by the bank.",
     ["The bank sued the builder."], D_PASSIVE)
case("ac-true-user-hotel", A, "must_pass", "The hotel cancelled your reservation.",
     NEUTRAL, D_SAIDBACK,
     messages=user("The hotel cancelled my reservation."))
case("ac-true-title-left-out", A, "must_pass", "Lise Moen designed the library.",
     ["The architect Lise Moen designed the library."],
     'docs/judges.md: "an apposition or a title before a name left out"')
case("ac-true-tool-sender", A, "must_pass", "The sender is Alice Ng.",
     NEUTRAL, D_JSON,
     messages=tool_chat("Who sent the money?", "get_payment", {
         "sender": "Alice Ng", "recipient": "Bo Li", "amount": 75, "currency": "USD"}))
case("ac-true-researchers", A, "must_pass", "Researchers at Uppsala discovered the enzyme.",
     ["Researchers at Uppsala discovered the enzyme in 1971."], D_LESSDATE)
case("ac-true-user-refunded", A, "must_pass", "The airline refunded you last week.",
     NEUTRAL, D_SAIDBACK + "; " + D_PASSIVE,
     messages=user("I was refunded by the airline last week."))


# ---------------------------------------------------------------------------------------------
# 5. values_by_kind
# ---------------------------------------------------------------------------------------------
V = "values_by_kind"
S_HALL = ["The concert hall seats 1,250 people."]
case("vk-digits-swapped", V, "must_fail", "The concert hall seats 1,520 people.", S_HALL,
     "another number")
case("vk-euro-dollar", V, "must_fail", "The ticket costs $45.", ["The ticket costs €45."],
     "another currency")
case("vk-pound-euro", V, "must_fail", "The rent is €950 a month.", ["The rent is £950 a month."],
     "another currency")
case("vk-cad-usd", V, "must_fail", "The loan was $5,000.",
     ["The loan was 5,000 Canadian dollars."], "Canadian dollars are not US dollars")
case("vk-yen-yuan", V, "must_fail", "The tour costs 3,000 yuan.",
     ["The tour costs 3,000 yen."], "yen against yuan")
case("vk-words-currency", V, "must_fail", "The repair cost 45 dollars.",
     ["The repair cost forty-five pounds."], "the number written out, another currency")
case("vk-swiss-euro", V, "must_fail", "The fine is 200 euros.",
     ["The fine is 200 Swiss francs."], "another currency")
case("vk-km-miles", V, "must_fail", "The trail is 12 miles long.",
     ["The trail is 12 km long."], "another unit of one dimension: 12 km is 7.5 miles")
case("vk-feet-wrong", V, "must_fail", "The bridge is 1,500 feet long.",
     ["The bridge is 400 metres long."], "400 m is 1,312 feet")
case("vk-litres-gallons", V, "must_fail", "The tank holds 50 gallons.",
     ["The tank holds 50 litres."], "another unit")
case("vk-metres-feet", V, "must_fail", "The summit is 4,478 feet high.",
     ["The summit is 4,478 metres high."], "the same number in another unit")
case("vk-celsius-f", V, "must_fail", "The oven heats to 220 °F.",
     ["The oven heats to 220 °C."], "another temperature unit")
case("vk-date-swap", V, "must_fail", "The clinic opened on 3 April 2019.",
     ["The clinic opened on 4 March 2019."], "day and month swapped")
case("vk-may-modal", V, "must_fail", "The council approved the budget in May.",
     ["The council may approve the budget in June."],
     "'may' the modal read as the month; and a possibility told as done")
case("vk-march-verb", V, "must_fail", "Protesters marched to the parliament in March.",
     ["Protesters will march to the parliament on 12 June."],
     "'march' the verb read as the month")
case("vk-iso-us", V, "must_fail", "The patch was released on 11 May 2024.",
     ["The patch was released on 2024-11-05."], "an ISO date read month-day the wrong way")
case("vk-german-date", V, "must_fail", "The plant opened on 7 July 2021.",
     ["Das Werk wurde am 7. Juni 2021 eröffnet."], "Juni is June")
case("vk-french-date", V, "must_fail", "The bridge was inaugurated on 3 April 1998.",
     ["Le pont a été inauguré le 3 août 1998."], "août is August")
case("vk-weekday", V, "must_fail", "The farmers' market is held every Tuesday.",
     ["The farmers' market is held every Thursday."], "another weekday")
case("vk-weekday-date", V, "must_fail", "The strike began on Tuesday, 6 May 2024.",
     ["The strike began on Monday, 6 May 2024."], "another weekday with the same date")
case("vk-24h-am", V, "must_fail", "The last train leaves at 11:10 am.",
     ["The last train leaves at 23:10."], "23:10 is 11:10 pm")
case("vk-pm-24h", V, "must_fail", "The pharmacy closes at 16:00.",
     ["The pharmacy closes at 6 pm."], "6 pm is 18:00")
case("vk-24h-pm", V, "must_fail", "Check-in opens at 4:30 pm.",
     ["Check-in opens at 14:30."], "14:30 is 2:30 pm")
case("vk-duration-unit", V, "must_fail", "The course lasts 6 months.",
     ["The course lasts 6 weeks."], "weeks against months")
case("vk-duration-convert", V, "must_fail", "The warranty lasts 2 years.",
     ["The warranty lasts 18 months."], "18 months is not 2 years")
case("vk-pp-percent", V, "must_fail", "Unemployment rose by 2 percent.",
     ["Unemployment rose by 2 percentage points last year."],
     "percentage points are not percent (docs)")
case("vk-from-to-by", V, "must_fail", "Turnout fell by 58%.",
     ["Turnout fell from 64% to 58%."], "'to 58%' read as 'by 58%'")
case("vk-by-to", V, "must_fail", "The price of bread rose to 8%.",
     ["The price of bread rose by 8%."], "'by' read as 'to'")
case("vk-at-most-exact", V, "must_fail", "The lift carries 8 people.",
     ["The lift carries at most 8 people."], "a bound told as an exact value")
case("vk-no-fewer-exact", V, "must_fail", "30 volunteers took part in the clean-up.",
     ["No fewer than 30 volunteers took part in the clean-up."],
     "a lower bound told as an exact value")
case("vk-up-to-exact", V, "must_fail", "The room holds 40 guests.",
     ["The room holds up to 40 guests."], "'up to' told as exact")
case("vk-over-broken", V, "must_fail", "Over 3,000 runners finished the race.",
     ["Over 2,000 runners finished the race."], "a bound the source does not reach")
case("vk-about-exact", V, "must_fail", "The plant employs 480 people.",
     ["The plant employs about 480 people."], "docs: an exact claim over a hedged source")
case("vk-about-wrong", V, "must_fail", "The plant employs about 600 people.",
     ["The plant employs 480 people."], "about 600 does not hold 480")
case("vk-nearly", V, "must_fail", "More than 90 people applied for the post.",
     ["Nearly 90 people applied for the post."], "'nearly 90' is below 90")
case("vk-range-year", V, "must_fail", "The project cost 3 million euros.",
     ["The project cost between 2 and 3 million euros."], "a value inside a range told as the value")
case("vk-decade", V, "must_fail", "The band formed in 1974.",
     ["The band formed in the 1970s."], "a decade is no year")
case("vk-scale", V, "must_fail", "The company earned $4.2 million in 2023.",
     ["The company earned $4.2 billion in 2023."], "another scale")
case("vk-decimal-scale", V, "must_fail", "The city has 12 million residents.",
     ["The city has 1.2 million residents."], "a decimal point dropped")
case("vk-code", V, "must_fail", "Your booking reference is KX-4417.",
     ["Your booking reference is KX-4471."], "a code with two digits swapped")
case("vk-gate-code", V, "must_fail", "Flight LH 2210 departs from gate B21.",
     ["Flight LH 2210 departs from gate B12."], "another gate")
case("vk-yes-no", V, "must_fail", "Pets are allowed in the cabins.",
     ["Pets are not allowed in the cabins."], "no told as yes")
case("vk-ordinal", V, "must_fail", "She finished second in the final.",
     ["She finished third in the final."], "another place")
case("vk-hours-range", V, "must_fail", "The museum is open from 10:00 to 19:00.",
     ["The museum is open from 10:00 to 17:00."], "another closing time")

# true cases
case("vk-true-separator", V, "must_pass", "The concert hall seats 1250 people.", S_HALL,
     D_NUM + '; docs/usage.md "numbers with or without separators"')
case("vk-true-bound", V, "must_pass", "The concert hall seats more than 1,000 people.", S_HALL,
     D_BOUND)
case("vk-true-hedge", V, "must_pass", "The concert hall seats roughly 1,000 people.", S_HALL,
     'docs/judges.md: "A hedge (... \'roughly\' ...) is the number at its own precision: \'about 50,000\' is 45,000 to 55,000"')
case("vk-true-francs", V, "must_pass", "The fine is 200 francs.",
     ["The fine is 200 Swiss francs."],
     'docs/judges.md: "A bare \'dollars\', \'pounds\' or \'francs\' is the US dollar, pound sterling or Swiss franc"')
case("vk-true-euros-word", V, "must_pass", "The ticket costs 45 euros.", ["The ticket costs €45."],
     D_MONEY)
case("vk-true-eur-code", V, "must_pass", "The ticket costs EUR 45.", ["The ticket costs €45."],
     D_MONEY + '; "a currency code is read in capitals (\'EUR 5\')"')
case("vk-true-pounds", V, "must_pass", "The rent is 950 pounds a month.",
     ["The rent is £950 a month."],
     'docs/judges.md: "A bare ... \'pounds\' ... is the ... pound sterling"')
case("vk-true-usd-code", V, "must_pass", "The repair cost USD 45.",
     ["The repair cost $45."], D_MONEY + ': "\'$30\', ... \'USD 30\' ... are one amount"')
case("vk-true-km-word", V, "must_pass", "The trail is 12 kilometres long.",
     ["The trail is 12 km long."], 'design/local-judge.md: "units | \'330 m\' / \'330 metres\' | one spelling"')
case("vk-true-feet", V, "must_pass", "The bridge is 1,312 feet long.",
     ["The bridge is 400 metres long."], D_UNITS)
case("vk-true-date-format", V, "must_pass", "The clinic opened on March 4, 2019.",
     ["The clinic opened on 4 March 2019."],
     'design/local-judge.md: "date formats | \'14 July\' / \'July 14\' | one token"')
case("vk-true-date-less", V, "must_pass", "The clinic opened in 2019.",
     ["The clinic opened on 4 March 2019."], D_LESSDATE)
case("vk-true-fifty", V, "must_pass", "The tank holds fifty litres.",
     ["The tank holds 50 litres."], D_NUM)
case("vk-true-million", V, "must_pass", "The city has 1,200,000 residents.",
     ["The city has 1.2 million residents."],
     'docs/judges.md: "\'1.2 million\' is \'1,200,000\'"')
case("vk-true-range-forms", V, "must_pass", "The museum was built from 1887 to 1889.",
     ["The museum was built between 1887 and 1889."],
     'design/local-judge.md: "a range | \'between 1887 and 1889\' / \'from 1887 to 1889\'"')
case("vk-true-to-role", V, "must_pass", "Turnout fell to 58%.",
     ["Turnout fell from 64% to 58%."],
     'design/local-judge.md: "(\'The rate rose to 6%\' is stated by \'rose from 4% to 6%\')"')
case("vk-true-no-more-than", V, "must_pass", "The lift carries no more than 8 people.",
     ["The lift carries at most 8 people."],
     'design/local-judge.md: "\'at most\', \'up to\', \'no more than\' / up to it"')
case("vk-true-fewer-than", V, "must_pass", "The plant employs fewer than 500 people.",
     ["The plant employs 480 people."], D_BOUND)
case("vk-true-minutes-hours", V, "must_pass", "The course lasts 1.5 hours.",
     ["The course lasts 90 minutes."], D_UNITS)
case("vk-true-may-both", V, "must_pass", "Visitors may swim in the lake in May.",
     ["In May, visitors may swim in the lake."], D_FRONT)
case("vk-true-weekday-less", V, "must_pass", "The strike began on 6 May 2024.",
     ["The strike began on Monday, 6 May 2024."], D_LESSDATE)
case("vk-true-iso-prose", V, "must_pass", "The patch was released on 5 November 2024.",
     ["The patch was released on 2024-11-05."],
     'docs/judges.md: "number, date and unit formats" (ISO promised for records in docs/usage.md; '
     + CAREFUL + " in prose)")
case("vk-true-json-code", V, "must_pass", "The booking reference for Mo Diaz is KX-4471.",
     [json.dumps({"guest": "Mo Diaz", "booking_ref": "KX-4471"})],
     'docs/usage.md: "codes such as A-5521, which are names, not numbers"; the key `booking_ref` '
     'said as "booking reference": ' + CAREFUL)
case("vk-true-pm", V, "must_pass", "The pharmacy closes at 6 pm.",
     ["The pharmacy closes at 18:00."], CAREFUL + " (18:00 is 6 pm)")
case("vk-true-months-years", V, "must_pass", "The warranty lasts 2 years.",
     ["The warranty lasts 24 months."], D_UNITS + "; " + CAREFUL + " for months to years")


# ---------------------------------------------------------------------------------------------
# 6. says_less
# ---------------------------------------------------------------------------------------------
L = "says_less"
# true: says less than one plain statement
case("sl-true-adjective-before", L, "must_pass", "The stone bridge collapsed in 1962.",
     ["The old stone bridge collapsed in 1962."], D_BEFOREHEAD)
case("sl-true-new-museum", L, "must_pass", "The museum opened in 2010.",
     ["The new museum opened in 2010."], D_BEFOREHEAD)
case("sl-true-artificial-lake", L, "must_pass", "The lake covers 40 hectares.",
     ["The artificial lake covers 40 hectares."],
     D_BEFOREHEAD + " (an artificial lake is a lake)")
case("sl-true-after-phrase", L, "must_pass", "The bakery sells sourdough bread.",
     ["The bakery on Elm Street sells sourdough bread every morning."],
     CAREFUL + ": a place phrase after the head and a time dropped")
case("sl-true-reorder", L, "must_pass", "The orchestra toured Brazil in 1998.",
     ["In 1998, the orchestra toured Brazil."], D_FRONT)
case("sl-true-passive", L, "must_pass", "The new curriculum was approved by the committee.",
     ["The committee approved the new curriculum."], D_PASSIVE)
case("sl-true-physician", L, "must_pass", "The doctor examined the patient on Monday.",
     ["The physician examined the patient on Monday."],
     'docs/judges.md: synonyms of one first sense ... design/local-judge.md: "\'doctor\' / \'physician\'"')
case("sl-true-movie", L, "must_pass", "The movie was shot in Iceland.",
     ["The film was shot in Iceland."],
     'design/local-judge.md: "a synonym | \'built\' / \'constructed\', \'film\' / \'movie\'"')
case("sl-true-purchased", L, "must_pass", "The family bought a car in 2015.",
     ["The family purchased a car in 2015."], D_SYN + " (buy / purchase)")
case("sl-true-automobile", L, "must_pass", "The museum displays an automobile from 1910.",
     ["The museum displays a car from 1910."], D_SYN + " (car / automobile)")
case("sl-true-large", L, "must_pass", "The family bought a big house near the lake.",
     ["The family bought a large house near the lake."], D_SYN + " (large / big)")
case("sl-true-apposition", L, "must_pass", "Tove Lind founded the choir in 2003.",
     ["Tove Lind, a retired nurse, founded the choir in 2003."], D_APPOS)
case("sl-true-relative", L, "must_pass", "The ferry sails at noon.",
     ["The ferry, which carries 300 passengers, sails at noon."], D_APPOS)
case("sl-true-date-less", L, "must_pass", "The museum opened its new wing in 2017.",
     ["The museum opened its new wing on 12 October 2017."], D_LESSDATE)
case("sl-true-possessive", L, "must_pass", "Tromsø's population grew in 2020.",
     ["The population of Tromsø grew in 2020."], 'docs/judges.md: "\'X of Y\' and \'Y\'s X\'"')
case("sl-true-all-dropped", L, "must_pass", "Dogs are forbidden on beaches in July.",
     ["Dogs are forbidden on all beaches in July."],
     'design/local-judge.md: "an \'all\' left out ... the evidence\'s \'all\' may be left out"')
case("sl-true-narrower-universal", L, "must_pass", "Every guest room has a private bathroom.",
     ["The hotel has 40 guest rooms. Every room has a private bathroom."],
     'design/local-judge.md: "a narrower subject under a universal ... \'Each node has 64 GB\' / \'Every worker node has 64 GB\'"')
case("sl-true-pronoun", L, "must_pass", "The Alder Library lends e-readers.",
     ["The Alder Library is on Quay Street. It lends e-readers."],
     'design/local-judge.md: "a pronoun-led clause or sentence ... the pronoun replaced by the subject before it"')
case("sl-true-brackets", L, "must_pass", "The valve must be replaced every year.",
     ["The valve (part number V-20) must be replaced every year."], D_APPOS)
case("sl-true-not-open", L, "must_pass", "The pool is not open on Mondays.",
     ["The pool is closed on Mondays."],
     'docs/judges.md: "\'not open\' for \'closed\'"')
case("sl-true-other-side", L, "must_pass", "Coffee is more expensive than tea at the canteen.",
     ["Tea is cheaper than coffee at the canteen."],
     'docs/judges.md: "a comparison from the other side"')
case("sl-true-identity", L, "must_pass", "Mira Sand is the director of the festival.",
     ["The director of the festival is Mira Sand."],
     'design/local-judge.md: "an identity said the other way round"')
case("sl-true-condition-order", L, "must_pass", "The doors unlock when the alarm sounds.",
     ["When the alarm sounds, the doors unlock."],
     'design/local-judge.md: "a condition said first or last"')
case("sl-true-lies-in", L, "must_pass", "The village is in a narrow valley.",
     ["The village lies in a narrow valley."], 'docs/judges.md: "\'lies in\' for \'is in\'"')
case("sl-true-until-event", L, "must_pass", "The shop stayed open until 2008.",
     ["The shop stayed open until the new mall was finished in 2008."],
     'docs/judges.md: "\'until the building was finished in 1930\' for \'until 1930\'"')
case("sl-true-after-storm", L, "must_pass", "Volunteers cleared the beach.",
     ["After the storm, volunteers cleared the beach."],
     'design/local-judge.md: "a time before an event in the past (\'After the war, Smith moved to Paris\': he moved)"')
case("sl-true-middle-adverb", L, "must_pass", "The river rose during the night.",
     ["The river rose quickly during the night."], CAREFUL + ": an adverb dropped")
case("sl-true-middle-adjective", L, "must_pass", "The city opened the museum in 2010.",
     ["The city opened the new museum in 2010."], CAREFUL + ": an adjective dropped mid-clause")
case("sl-true-only", L, "must_pass", "The first floor was flooded.",
     ["Only the first floor was flooded."],
     CAREFUL + " ('only X' entails X; docs say 'only' is a qualifier the claim must keep)")
case("sl-true-verbatim-llm", L, "must_pass", "The new terminal opened to passengers in April 2023.",
     ["The new terminal opened to passengers in April 2023. It cost 90 million euros."],
     'docs/judges.md: "a claim a passage states word for word passes" (cascade_verbatim)',
     options={"cascade_verbatim": True}, judges=["rules", "llm"])

# must fail: the dropped word changes what the thing is
case("sl-former", L, "must_fail", "The mayor opened the festival.",
     ["The former mayor opened the festival."], "a former mayor is no mayor")
case("sl-alleged", L, "must_fail", "The thief was arrested on Friday.",
     ["The alleged thief was arrested on Friday."], "alleged")
case("sl-fake", L, "must_fail", "Police seized banknotes worth 10,000 euros.",
     ["Police seized fake banknotes worth 10,000 euros."], "fake banknotes are no money")
case("sl-counterfeit", L, "must_fail", "The Rolex sold for $400 at the market.",
     ["The counterfeit Rolex sold for $400 at the market."], "a counterfeit Rolex is no Rolex")
case("sl-acting", L, "must_fail", "The director signed the contract.",
     ["The acting director signed the contract."], "acting")
case("sl-proposed", L, "must_fail", "The bypass cuts travel time by 20 minutes.",
     ["The proposed bypass would cut travel time by 20 minutes."], "proposed (and 'would')")
case("sl-replica-of", L, "must_fail", "The Viking ship is displayed in the harbour.",
     ["A replica of the Viking ship is displayed in the harbour."], "a replica of it")
case("sl-replica-adj", L, "must_fail", "The museum displays a sword from the 9th century.",
     ["The museum displays a replica sword from the 9th century."], "a replica sword")
case("sl-toy", L, "must_fail", "The tank rolled across the square.",
     ["The toy tank rolled across the square."], "a toy tank is no tank")
case("sl-vice", L, "must_fail", "The president chaired the meeting.",
     ["The vice president chaired the meeting."], "vice")
case("sl-deputy", L, "must_fail", "The head teacher suspended the pupil.",
     ["The deputy head teacher suspended the pupil."], "deputy")
case("sl-ex-husband", L, "must_fail", "Mona Berg sold the house.",
     ["The ex-husband of Mona Berg sold the house."], "her ex-husband sold it")
case("sl-would-be", L, "must_fail", "The robber fled empty-handed.",
     ["The would-be robber fled empty-handed."], "would-be")
case("sl-suspected", L, "must_fail", "The arsonist was released on bail.",
     ["The suspected arsonist was released on bail."], "suspected")
case("sl-interim", L, "must_fail", "The CEO announced the layoffs.",
     ["The interim CEO announced the layoffs."], "interim")
case("sl-draft-law", L, "must_fail", "The law bans single-use plastic bags.",
     ["The draft law bans single-use plastic bags."], "a draft is no law")
case("sl-mock-trial", L, "must_fail", "The trial found the defendant guilty.",
     ["The mock trial found the defendant guilty."], "a mock trial")
case("sl-self-proclaimed", L, "must_fail", "The king of Redonda signed the letter.",
     ["The self-proclaimed king of Redonda signed the letter."], "self-proclaimed")
case("sl-ex-champion", L, "must_fail", "The champion trains young boxers.",
     ["The ex-champion trains young boxers."], "ex-")
case("sl-imitation", L, "must_fail", "The leather sofa costs £600.",
     ["The imitation leather sofa costs £600."], "imitation leather is not leather")
case("sl-former-factory", L, "must_fail", "The factory now houses a cinema.",
     ["The former factory now houses a cinema."], "former, with 'now'")
case("sl-nominee", L, "must_fail", "The chief justice testified on Tuesday.",
     ["The nominee for chief justice testified on Tuesday."], "a nominee for the post")
case("sl-intended", L, "must_fail", "The route passes through Lyon.",
     ["The intended route passes through Lyon."], "intended")
case("sl-user-former-employer", L, "must_fail", "Your employer owes you wages.",
     NEUTRAL, "the user's former employer",
     messages=user("My former employer owes me wages."))
case("sl-part-time", L, "must_fail", "Staff receive a travel pass.",
     ["Part-time staff receive a travel pass."],
     "a group widened (docs admit 'Full-time employees' passes 'Employees')")
case("sl-fake-llm-verbatim", L, "must_fail", "Diamonds were sold at the fair.",
     ["Fake diamonds were sold at the fair."],
     "cascade_verbatim: found whole after 'Fake' (the passage's qualifier left out)",
     options={"cascade_verbatim": True}, judges=["rules", "llm"],
     truth={"Diamonds were sold at the fair.": "unsupported"})


def main() -> None:
    out = HERE / "cases.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for row in CASES:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict = {}
    for row in CASES:
        c = counts.setdefault(row["class"], {"must_fail": 0, "must_pass": 0})
        c[row["expect"]] += 1
    total_fail = sum(c["must_fail"] for c in counts.values())
    total_pass = sum(c["must_pass"] for c in counts.values())
    for cls, c in counts.items():
        print(f"{cls:<22} must_fail {c['must_fail']:>3}  must_pass {c['must_pass']:>3}")
    print(f"{'all':<22} must_fail {total_fail:>3}  must_pass {total_pass:>3}  "
          f"({len(CASES)} cases, {total_pass / len(CASES):.0%} true)")


if __name__ == "__main__":
    main()
