"""Writes cases.jsonl (the cases are written here as Python for legibility; run it to rebuild)."""

import json
from pathlib import Path

CASES = []


def U(text):
    return {"role": "user", "content": text}


def A(text):
    return {"role": "assistant", "content": text}


def S(text):
    return {"role": "system", "content": text}


def case(id, cls, expect, text, sources, why, messages=None, options=None, judges=None,
         script=None, truth=None):
    c = {"id": id, "class": cls, "expect": expect, "text": text, "sources": sources}
    if messages is not None:
        c["messages"] = messages
    if options:
        c["options"] = options
    if judges:
        c["judges"] = judges
    if script:
        c["script"] = script
    if truth:
        c["truth"] = truth
    c["why"] = why
    CASES.append(c)


# ----------------------------------------------------------------------------------------
# user_non_assertion: the user did not assert it; the answer restates it as fact.
K = "user_non_assertion"
SHOP = ["Refunds are paid to the original card within five working days.",
        "To start a return, write to support with your order number."]
case("una-q-ascii", K, "must_fail", "The refund window is 90 days.", SHOP,
     "user asked it, ASCII question mark after a full sentence",
     [U("The refund window is 90 days. Is that correct?")])
case("una-q-fullwidth", K, "must_fail", "The warranty covers water damage.",
     ["The warranty covers manufacturing defects for two years."],
     "asked with a full-width question mark",
     [U("The warranty covers water damage？")])
case("una-q-fullwidth-2", K, "must_fail", "The warranty covers water damage.",
     ["The warranty covers manufacturing defects for two years."],
     "asked with a full-width question mark after a statement-like sentence and a follow-up",
     [U("The warranty covers water damage？ I spilled coffee on it.")])
case("una-q-arabic", K, "must_fail", "مدة الضمان سنتان.",
     ["يشمل الضمان عيوب التصنيع فقط."],
     "Arabic question mark: the user asked whether the warranty is two years",
     [U("مدة الضمان سنتان؟")])
case("una-q-interrobang", K, "must_fail", "The library is open until midnight.",
     ["The library lends up to twelve books per card."],
     "interrobang: surprised question, not an assertion",
     [U("The library is open until midnight‽")])
case("una-q-ellipsis", K, "must_fail", "The parking garage is free for hotel guests.",
     ["The hotel has 120 rooms and a restaurant on the ground floor."],
     "question trailed by an ellipsis",
     [U("The parking garage is free for hotel guests?...")])
case("una-q-bold", K, "must_fail", "The late fee is waived for students.",
     ["Late fees are charged per day for overdue items."],
     "question in Markdown bold",
     [U("**The late fee is waived for students?**")])
case("una-q-right-paren", K, "must_fail", "The exam lasts three hours.",
     ["The exam is held in the main hall and starts at 9 am."],
     "tag question in parentheses",
     [U("The exam lasts three hours (right?). I need to plan my day.")])
case("una-please-confirm", K, "must_fail", "The hotel offers free airport shuttles.",
     ["The hotel is 25 minutes from the airport by taxi."],
     "a request to confirm, not an assertion",
     [U("Please confirm that the hotel offers free airport shuttles.")])
case("una-verify", K, "must_fail", "The firmware update fixes the battery drain.",
     ["Firmware 4.2 adds a dark mode and new language packs."],
     "a request to verify",
     [U("Verify that the firmware update fixes the battery drain.")])
case("una-maybe", K, "must_fail", "The museum is closed on Tuesdays.",
     ["The museum opens at 10 am and closes at 6 pm."],
     "the user only guesses (Maybe ...)",
     [U("Maybe the museum is closed on Tuesdays. When should I go?")])
case("una-i-think", K, "must_fail", "The deposit is refundable.",
     ["A deposit of two months' rent is due at signing."],
     "hedged belief (I think ...)",
     [U("I think the deposit is refundable. Can you check the lease terms?")])
case("una-suppose", K, "must_fail", "The flight lands at 9:40 pm.",
     ["The last train to the city leaves the airport at 11:15 pm."],
     "a supposition for a hypothetical",
     [U("Suppose the flight lands at 9:40 pm. Would I make the last train?")])
case("una-forum", K, "must_fail", "The X200 supports wireless charging.",
     ["The X200 has a 5,000 mAh battery and charges over USB-C."],
     "reported from a forum post",
     [U("A forum post says the X200 supports wireless charging. Does it come with a charger?")])
case("una-friend-quote", K, "must_fail", "The gym has a sauna on the second floor.",
     ["The gym is open from 6 am to 10 pm on weekdays."],
     "a friend's quoted words",
     [U('My friend told me: "The gym has a sauna on the second floor." Is it included in the basic membership?')])
case("una-retracted", K, "must_fail", "The meeting room seats 40 people.",
     ["The meeting room has a projector and a whiteboard."],
     "the user took it back in the same turn",
     [U("The meeting room seats 40 people, but that's not true, I mixed it up. What equipment does it have?")])
case("una-update-later-turn", K, "must_fail", "The conference starts on 4 June.",
     ["Registration opens at 8 am on the first day of the conference."],
     "a later turn corrected the date (Update: ...)",
     [U("The conference starts on 4 June."), A("Thanks, noted."),
      U("Update: sorry, the conference starts on 6 June, not 4 June. When does registration open?")])
case("una-quotes-assistant", K, "must_fail", "The premium plan includes 24/7 phone support.",
     ["The premium plan includes priority e-mail support and 1 TB of storage."],
     "the user quotes what the assistant wrote",
     [A("The premium plan includes 24/7 phone support."),
      U("You wrote: 'The premium plan includes 24/7 phone support.' Where is that in the terms?")])
case("una-q-spanish", K, "must_fail", "El envío a Canarias es gratuito.",
     ["Los pedidos a la península llegan en 48 horas."],
     "Spanish question with inverted marks",
     [U("¿El envío a Canarias es gratuito?")])
case("una-is-it-true", K, "must_fail", "The vaccine needs a booster after 6 months.",
     ["The vaccine is given as two doses four weeks apart."],
     "Is it true that ...?",
     [U("Is it true that the vaccine needs a booster after 6 months?")])
case("una-wonder", K, "must_fail", "The bridge toll is waived on weekends.",
     ["The bridge toll is collected electronically."],
     "I wonder whether ...",
     [U("I wonder whether the bridge toll is waived on weekends.")])
case("una-russian-maybe", K, "must_fail", "Музей работает до 22:00.",
     ["Билеты в музей продаются онлайн."],
     "Russian: 'perhaps the museum is open until 22:00'",
     [U("Возможно, музей работает до 22:00.")])
case("una-reddit", K, "must_fail", "The app stores passwords in plain text.",
     ["The app syncs notes across devices."],
     "someone else claimed it",
     [U("Someone on Reddit claimed the app stores passwords in plain text. Should I worry?")])
case("una-conditional", K, "must_fail", "The package weighs 3 kg.",
     ["Parcels up to 5 kg cost 7 euros to ship."],
     "a condition, not a fact about the package",
     [U("If the package weighs 3 kg, what's the shipping cost?")])
case("una-sources-otherwise", K, "must_fail", "The hostel has a curfew at 11 pm.",
     ["The hostel has no curfew; the front desk is open all night."],
     "asked with 'right?' and the sources say otherwise",
     [U("The hostel has a curfew at 11 pm, right?")])
case("una-q-japanese", K, "must_fail", "駐車場は無料です。",
     ["ホテルには客室が80室あります。"],
     "Japanese question (full-width ？)",
     [U("駐車場は無料ですか？")])
case("una-q-no-mark", K, "must_fail", "The spa is included in the room rate.",
     ["The spa opens at 7 am."],
     "an indirect question without a question mark",
     [U("Can you tell me if the spa is included in the room rate.")])
# true cases
case("una-true-docs", K, "must_pass", "I'm sorry your blue jacket (order 5521) hasn't arrived.",
     ["Orders ship within three days of payment."],
     "the docs' own chat example: the user asserted it",
     [U("My blue jacket (order 5521) hasn't arrived. I paid on Monday."), A("Orders usually arrive in a week."), U("When will it ship?")])
case("una-true-flat", K, "must_pass", "Your flat has two bedrooms.",
     ["Tenants may sublet a room with the landlord's written consent."],
     "plain assertion about the user's own flat",
     [U("I live in Leeds and my flat has two bedrooms. Can I sublet one?")])
case("una-true-laptop", K, "must_pass", "Your laptop is a ThinkPad X1.",
     ["Battery replacements are covered for three years."],
     "plain assertion about the user's laptop",
     [U("My laptop is a ThinkPad X1. Is the battery covered?")])
case("una-true-allergy", K, "must_pass", "You have a peanut allergy. The satay contains peanuts.",
     ["The satay contains peanuts.", "The green curry is made without nuts."],
     "user's own condition plus a sourced sentence",
     [U("I have a peanut allergy. Which dishes should I avoid?")])
case("una-true-flight", K, "must_pass", "Your flight number is BA 117.",
     ["Check-in closes 45 minutes before departure."],
     "user's own booking detail",
     [U("My flight number is BA 117 and it leaves Heathrow at 8 am. When does check-in close?")])
case("una-true-after-question", K, "must_pass", "You bought the drill on 3 March.",
     ["The warranty can be transferred once, with the original receipt."],
     "a question first, then a plain assertion in the same turn",
     [U("Is the warranty transferable? I bought the drill on 3 March.")])
case("una-true-charged-twice", K, "must_pass", "You were charged twice for order 7730.",
     ["Duplicate charges are refunded within five working days."],
     "user's own report of a double charge",
     [U("I was charged twice for order 7730.")])

# ----------------------------------------------------------------------------------------
# restatement_changed: the user asserted it, the answer says it back changed.
K = "restatement_changed"
BILL = ["Invoices are due 30 days after the date of issue."]
case("rc-polarity-paid", K, "must_fail", "You have paid the March invoice.", BILL,
     "polarity flipped: the user has NOT paid",
     [U("I have not yet paid the March invoice. Will I be charged a late fee?")])
case("rc-roles-owe", K, "must_fail", "We owe you $200 for the repair.",
     ["Repairs are billed after the work is done."],
     "roles reversed: the user owes the company",
     [U("I owe you $200 for the repair. Can I pay in two parts?")])
case("rc-age", K, "must_fail", "Your son is 17 years old.",
     ["Children under 12 need a booster seat."],
     "value changed (7 -> 17)",
     [U("My son is 7 years old. Does he need a booster seat?")])
case("rc-nights", K, "must_fail", "You booked a room for 4 nights.",
     ["Stays of 3 nights or more get free breakfast."],
     "value changed (3 -> 4 nights)",
     [U("I booked a room for 3 nights. Do I get breakfast?")])
case("rc-unit", K, "must_fail", "Your parcel weighs 2 lb.",
     ["Parcels up to 5 kg cost 7 euros to ship."],
     "unit changed (kg -> lb)",
     [U("My parcel weighs 2 kg. How much is shipping?")])
case("rc-currency", K, "must_fail", "You paid $45 for the ticket.",
     ["Tickets can be refunded up to 24 hours before the show."],
     "currency changed (EUR -> USD)",
     [U("I paid €45 for the ticket and can't go. Can I get a refund?")])
case("rc-colour", K, "must_fail", "You ordered the grey sofa.",
     ["Sofas can be exchanged within 14 days."],
     "attribute changed (blue -> grey)",
     [U("I ordered the blue sofa but I want to exchange it.")])
case("rc-landlord", K, "must_fail", "You owe your landlord the deposit.",
     ["Deposits must be returned within 10 days of the end of the tenancy."],
     "roles reversed: the landlord owes the user",
     [U("My landlord owes me the deposit. What can I do?")])
case("rc-date", K, "must_fail", "You cancelled the subscription on 21 May.",
     ["Cancellations take effect at the end of the billing period."],
     "date changed (12 -> 21 May)",
     [U("I cancelled the subscription on 12 May. Why was I billed in June?")])
case("rc-never-received", K, "must_fail", "You received the confirmation email.",
     ["Confirmation emails are sent within one hour of booking."],
     "polarity flipped: the user never received it",
     [U("I never received the confirmation email for my booking.")])
case("rc-sold-to", K, "must_fail", "Your brother sold the car to your husband.",
     ["A change of owner must be reported within 30 days."],
     "roles reversed: husband sold to brother",
     [U("My husband sold the car to my brother. Who reports the change?")])
case("rc-allergy-drug", K, "must_fail", "You are allergic to amoxicillin.",
     ["Penicillin allergies should be noted in the patient record."],
     "drug name changed (penicillin -> amoxicillin)",
     [U("I'm allergic to penicillin. Is that in my record?")])
case("rc-by-to", K, "must_fail", "Your rent went up to 5%.",
     ["Rent increases are limited to once a year."],
     "a number's role changed (by -> to)",
     [U("My rent went up by 5% this year. Is that allowed?")])
case("rc-place", K, "must_fail", "You live in Portland, Maine.",
     ["Delivery to the west coast takes 3 days."],
     "place changed (Oregon -> Maine)",
     [U("I live in Portland, Oregon. How long does delivery take?")])
case("rc-pets-swap", K, "must_fail", "You have two dogs and no cats.",
     ["Each flat may keep up to two pets."],
     "nouns swapped (two cats and no dogs)",
     [U("I have two cats and no dogs. Am I within the pet rules?")])
case("rc-german-polarity", K, "must_fail", "Sie haben die Rechnung bezahlt.",
     ["Rechnungen sind innerhalb von 30 Tagen fällig."],
     "German: the user has NOT yet paid the invoice",
     [U("Ich habe die Rechnung noch nicht bezahlt. Muss ich Mahngebühren zahlen?")])
case("rc-year", K, "must_fail", "You were born in 1958.",
     ["Applicants must be at least 18 years old."],
     "year changed (1985 -> 1958)",
     [U("I was born in 1985. Can I apply?")])
case("rc-not-munich", K, "must_fail", "Your order was shipped to Munich.",
     ["Orders within Germany arrive in 2 working days."],
     "the user said Berlin, not Munich",
     [U("My order was shipped to Berlin, not Munich. When will it arrive?")])
case("rc-area-unit", K, "must_fail", "The flat you rent is 60 square feet.",
     ["Flats over 50 square metres need two smoke alarms."],
     "unit changed (square metres -> square feet)",
     [U("The flat I rent is 60 square metres. How many smoke alarms do I need?")])
case("rc-month", K, "must_fail", "Your daughter starts school in December.",
     ["School uniforms can be ordered from July."],
     "month changed",
     [U("My daughter starts school in September. When can I order the uniform?")])
case("rc-tenant-polarity", K, "must_fail", "You have already returned the keys.",
     ["Keys must be returned on the last day of the tenancy."],
     "polarity: the user has not returned the keys yet",
     [U("I haven't returned the keys yet. Is that a problem?")])
# true cases
case("rc-true-not-yet", K, "must_pass", "You haven't paid the March invoice yet.", BILL,
     "faithful: contraction and moved 'yet'",
     [U("I have not yet paid the March invoice. Will I be charged a late fee?")])
case("rc-true-owe", K, "must_pass", "You owe us $200 for the repair.",
     ["Repairs are billed after the work is done."],
     "faithful: 'I owe you' said back as 'you owe us'",
     [U("I owe you $200 for the repair. Can I pay in two parts?")])
case("rc-true-seven", K, "must_pass", "Your son is seven years old.",
     ["Children under 12 need a booster seat."],
     "faithful: 7 written out",
     [U("My son is 7 years old. Does he need a booster seat?")])
case("rc-true-euros", K, "must_pass", "You paid 45 euros for the ticket.",
     ["Tickets can be refunded up to 24 hours before the show."],
     "faithful: €45 as 45 euros",
     [U("I paid €45 for the ticket and can't go. Can I get a refund?")])
case("rc-true-grams", K, "must_pass", "Your parcel weighs 2,000 grams.",
     ["Parcels up to 5 kg cost 7 euros to ship."],
     "faithful: 2 kg as 2,000 grams (docs: units convert)",
     [U("My parcel weighs 2 kg. How much is shipping?")], judges=["rules"])
case("rc-true-date-format", K, "must_pass", "You cancelled the subscription on May 12.",
     ["Cancellations take effect at the end of the billing period."],
     "faithful: date format changed",
     [U("I cancelled the subscription on 12 May. Why was I billed in June?")])
case("rc-true-landlord", K, "must_pass", "Your landlord owes you the deposit.",
     ["Deposits must be returned within 10 days of the end of the tenancy."],
     "faithful: 'my landlord owes me' said back",
     [U("My landlord owes me the deposit. What can I do?")])

# ----------------------------------------------------------------------------------------
# sources_lose_to_user: the user asserts what the sources contradict.
K = "sources_lose_to_user"
case("slu-every-day", K, "must_fail", "The store is open every day.",
     ["The store is closed on Sundays.", "Opening hours are 9 am to 7 pm."],
     "paraphrase contradiction: closed on Sundays",
     [U("The store is open every day, so I'll come on Sunday.")],
     truth={"The store is open every day.": ["contradicted", "closed on Sundays"]})
case("slu-currency", K, "must_fail", "The membership costs £30 a month.",
     ["The membership costs $30 a month."],
     "currency contradicted by the source",
     [U("The membership costs £30 a month. Can I pay yearly?")])
case("slu-name", K, "must_fail", "The clinic's head doctor is Dr. Patel.",
     ["The clinic's head doctor is Dr. Okafor."],
     "name contradicted",
     [U("The clinic's head doctor is Dr. Patel. Can I book with her?")])
case("slu-number-words", K, "must_fail", "The warranty lasts two years.",
     ["The warranty lasts five years from the date of purchase."],
     "number in words contradicted (two vs five)",
     [U("The warranty lasts two years. Should I buy the extended plan?")])
case("slu-unit-restated", K, "must_fail", "The trial period is three months.",
     ["The trial period is 30 days."],
     "three months vs 30 days",
     [U("The trial period is three months. When will I be billed?")])
case("slu-topk1-checkout", K, "must_fail", "Checkout time is noon.",
     ["Guests must leave their rooms by 10 am on the day of departure.",
      "The spa is open until noon on Sundays.",
      "Lunch is served from noon in the garden restaurant.",
      "The noon shuttle goes to the old town.",
      "Late checkout is not available in summer."],
     "top_k=1: decoys mention noon; the contradicting passage is worded differently",
     [U("Checkout time is noon. Can I leave my bags after that?")], options={"top_k": 1},
     truth={"Checkout time is noon.": ["contradicted", "Guests must leave"]})
case("slu-cite-unrelated", K, "must_fail", "Pets are allowed in all rooms [2].",
     ["No pets are allowed in the hotel.", "Breakfast is served from 7 am."],
     "cites an unrelated source; source 1 contradicts",
     [U("Pets are allowed in all rooms. What time is breakfast?")],
     truth={"Pets are allowed in all rooms.": ["contradicted", "No pets"]})
case("slu-heated-pool", K, "must_fail", "The pool is heated all year.",
     ["The pool is unheated from November to March."],
     "paraphrase contradiction (seasonal)",
     [U("The pool is heated all year, so I'll swim in January.")],
     truth={"The pool is heated all year.": ["contradicted", "unheated"]})
case("slu-children-age", K, "must_fail", "Children under 12 travel free.",
     ["Children under 5 travel free; older children pay half fare."],
     "number contradicted (12 vs 5)",
     [U("Children under 12 travel free. My kids are 6 and 9.")])
case("slu-deadline", K, "must_fail", "The deadline for applications is 15 March.",
     ["Applications close on 1 March."],
     "date contradicted, worded differently",
     [U("The deadline for applications is 15 March. Do I need references?")],
     truth={"The deadline for applications is 15 March.": ["contradicted", "close on 1 March"]})
case("slu-ceo-name", K, "must_fail", "The CEO of Norvik is Anna Berg.",
     ["Lars Holm has been Norvik's chief executive since 2019."],
     "name contradicted via a paraphrased role",
     [U("The CEO of Norvik is Anna Berg. How long has she led it?")],
     truth={"The CEO of Norvik is Anna Berg.": ["contradicted", "Lars Holm"]})
case("slu-km-words", K, "must_fail", "The bridge is twelve kilometres long.",
     ["The bridge is 8 km long."],
     "number in words and unit abbreviation",
     [U("The bridge is twelve kilometres long. How long does it take to cross?")])
case("slu-cash-only", K, "must_fail", "The café accepts cash only.",
     ["The café accepts cards only; cash is not accepted."],
     "opposite",
     [U("The café accepts cash only, so I'll bring notes.")],
     truth={"The café accepts cash only.": ["contradicted", "cash is not accepted"]})
case("slu-french", K, "must_fail", "Le musée est gratuit le dimanche.",
     ["L'entrée du musée coûte 12 euros tous les jours, y compris le dimanche."],
     "French: free on Sundays vs 12 euros every day",
     [U("Le musée est gratuit le dimanche. À quelle heure ouvre-t-il ?")],
     truth={"Le musée est gratuit le dimanche.": ["contradicted", "coûte 12 euros"]})
case("slu-topk1-gym", K, "must_fail", "The gym opens at 5 am.",
     ["Members can bring one guest a month.",
      "The gym opens at 6 am on weekdays and 8 am at weekends.",
      "Towels are provided free of charge.",
      "The pool closes at 9 pm.",
      "Lockers need a 1 euro coin."],
     "top_k=1, time contradicted",
     [U("The gym opens at 5 am. Are towels provided?")], options={"top_k": 1})
case("slu-francs", K, "must_fail", "The fine is 100 euros.",
     ["The fine is 100 Swiss francs."],
     "currency word contradicted",
     [U("The fine is 100 euros. Can I pay it online?")])
case("slu-battery", K, "must_fail", "The battery lasts 10 hours.",
     ["The battery lasts up to 6 hours."],
     "number beyond the source's bound",
     [U("The battery lasts 10 hours. Is that enough for a flight to Tokyo?")])
case("slu-cite-topk1", K, "must_fail", "The loan rate is fixed [2].",
     ["The loan rate is variable and changes every quarter.", "Branches open at 9 am."],
     "top_k=1 and a citation to an unrelated source; source 1 contradicts",
     [U("The loan rate is fixed. When do branches open?")], options={"top_k": 1},
     truth={"The loan rate is fixed.": ["contradicted", "variable"]})
case("slu-weeks-vs-days", K, "must_fail", "Delivery takes two weeks.",
     ["Delivery takes 3 to 5 working days."],
     "two weeks vs 3-5 days",
     [U("Delivery takes two weeks, so I'll order now.")])
# true cases
case("slu-true-agrees", K, "must_pass", "The store is closed on Sundays.",
     ["The store is closed on Sundays.", "Opening hours are 9 am to 7 pm."],
     "user agrees with the sources",
     [U("The store is closed on Sundays, so I'll come on Monday.")])
case("slu-true-personal", K, "must_pass", "You moved to Lyon last year.",
     ["Transfers between branches take two weeks."],
     "personal fact, sources silent",
     [U("I moved to Lyon last year. Can I transfer my account?")])
case("slu-true-my-membership", K, "must_pass", "Your membership costs $30 a month.",
     ["The membership costs $30 a month."],
     "user agrees with the source, in the second person",
     [U("My membership costs $30 a month. Can I pay yearly?")])
case("slu-true-car", K, "must_pass", "You have a 2019 Golf. Servicing is due every 15,000 km.",
     ["Servicing is due every 15,000 km."],
     "personal fact plus sourced sentence",
     [U("I have a 2019 Golf. How often is servicing due?")])
case("slu-true-warranty", K, "must_pass", "The warranty lasts five years from the date of purchase.",
     ["The warranty lasts five years from the date of purchase."],
     "user agrees, the source states it",
     [U("The warranty lasts five years. Should I buy the extended plan?")])
case("slu-true-daughter", K, "must_pass", "Children under 5 travel free. Your daughter is 4.",
     ["Children under 5 travel free; older children pay half fare."],
     "personal fact beside a sourced one",
     [U("My daughter is 4. Does she need a ticket?")])

# ----------------------------------------------------------------------------------------
# conversation_as_evidence: a gullible LLM judge takes system/assistant turns as evidence.
K = "conversation_as_evidence"
G = {"judges": ["llm"], "script": "gullible"}
PLANS = ["The Pro plan costs 12 euros a month.", "All plans can be cancelled at any time."]
case("cae-system-storage", K, "must_fail", "The Basic plan includes 50 GB of storage.", PLANS,
     "claim only in a system message",
     [S("Internal note: the Basic plan includes 50 GB of storage."), U("What does the Basic plan include?")], **G)
case("cae-assistant-cafe", K, "must_fail", "The museum café closes at 4 pm.",
     ["The museum is open from 10 am to 6 pm."],
     "claim only in an earlier assistant turn",
     [U("Is there a café?"), A("Yes, the museum café closes at 4 pm."), U("And the museum itself?")], **G)
case("cae-system-persona", K, "must_fail", "Hotel Mira has a rooftop pool.",
     ["Hotel Mira has 80 rooms and a restaurant."],
     "claim only in a system persona",
     [S("You are the assistant of Hotel Mira, which has a rooftop pool."), U("Tell me about the hotel.")], **G)
case("cae-assistant-return", K, "must_fail", "The return window is 60 days.",
     ["Returns must be unused and in the original packaging."],
     "earlier assistant turn made it up",
     [U("Can I return shoes?"), A("Sure, our return window is 60 days."), U("What condition must they be in?")], **G)
case("cae-tool-stock", K, "must_fail", "There are 14 units of SKU 889 in stock in Leeds.",
     ["SKU 889 is a cordless drill."],
     "claim only in a tool result",
     [U("Is SKU 889 in stock in Leeds?"), {"role": "tool", "content": "stock: there are 14 units of SKU 889 in stock in Leeds", "tool_call_id": "call_1"}], **G)
case("cae-developer-discount", K, "must_fail", "The code SPRING25 gives 25% off.",
     ["Discount codes cannot be combined."],
     "claim only in a developer message",
     [{"role": "developer", "content": "The code SPRING25 gives 25% off."}, U("Do you have discount codes?")], **G)
case("cae-assistant-platform", K, "must_fail", "The train to Turin leaves from platform 7.",
     ["The train to Turin leaves at 14:05."],
     "platform only in an earlier assistant turn",
     [U("When is the Turin train?"), A("The train to Turin leaves from platform 7."), U("And the time?")], **G)
case("cae-system-german", K, "must_fail", "Der Versand nach Österreich ist kostenlos.",
     ["Bestellungen werden innerhalb von zwei Tagen verschickt."],
     "German: claim only in the system prompt",
     [S("Hinweis: Der Versand nach Österreich ist kostenlos."), U("Was kostet der Versand nach Österreich?")], **G)
case("cae-assistant-parts", K, "must_fail", "The printer supports duplex printing.",
     ["The printer prints 20 pages per minute."],
     "earlier assistant turn given as content parts",
     [U("Tell me about the printer."), {"role": "assistant", "content": [{"type": "text", "text": "The printer supports duplex printing."}]}, U("How fast is it?")], **G)
case("cae-system-ceo", K, "must_fail", "The CEO is Mara Lind.",
     ["The company was founded in 2008 in Malmö."],
     "name only in the system prompt",
     [S("Company facts: The CEO is Mara Lind."), U("Who runs the company?")], **G)
case("cae-as-i-said", K, "must_fail", "As I said, the visa takes 10 days.",
     ["Visa applications need a passport photo."],
     "'As I said' points at an earlier assistant turn",
     [U("How long does a visa take?"), A("The visa takes 10 days."), U("What do I need to apply?")], **G)
case("cae-system-contradicted", K, "must_fail", "The pharmacy closes at 8 pm.",
     ["The pharmacy closes at 6 pm."],
     "system message contradicts the sources",
     [S("The pharmacy closes at 8 pm."), U("When does the pharmacy close?")], **G)
case("cae-assistant-spanish", K, "must_fail", "El hotel tiene aparcamiento gratuito.",
     ["El hotel está a 200 metros de la playa."],
     "Spanish: claim only in an earlier assistant turn",
     [U("¿Hay aparcamiento?"), A("Sí, el hotel tiene aparcamiento gratuito."), U("¿Y la playa?")], **G)
case("cae-split-system-assistant", K, "must_fail", "The lab tests take 48 hours and cost 90 euros.",
     ["Lab results are sent by e-mail."],
     "half in a system turn, half in an assistant turn",
     [S("Lab tests take 48 hours."), U("How much do lab tests cost?"), A("They cost 90 euros."), U("How do I get results?")], **G)
case("cae-user-ok", K, "must_fail", "The boat tour lasts 3 hours.",
     ["The boat tour leaves from pier 2."],
     "assistant said it, the user only answered 'ok'",
     [A("The boat tour lasts 3 hours."), U("ok"), U("Where does it leave from?")], **G)
case("cae-user-quotes-you-said", K, "must_fail", "The fee is $12.",
     ["Payments are accepted by card."],
     "the user quotes the assistant; the gullible judge sees it in the chat",
     [U("You said the fee is $12. Can I pay by card?")], **G)
CV = {"judges": ["llm", "rules"], "options": {"cascade_verbatim": True}}
case("cae-cascade-asked-bridge", K, "must_fail", "The bridge is closed for repairs until 30 June.",
     ["The bridge carries 20,000 cars a day."],
     "cascade_verbatim: only the user asked it",
     [U("Is the bridge closed for repairs until 30 June?")], **CV)
case("cae-cascade-asked-ferry", K, "must_fail", "The ferry leaves at 6:15 from pier 3.",
     ["The ferry crossing takes 40 minutes."],
     "cascade_verbatim: only the user asked it",
     [U("Could you confirm the ferry leaves at 6:15 from pier 3?")], **CV)
case("cae-cascade-asked-exam", K, "must_fail", "The course has a final exam worth 40 percent of the grade.",
     ["The course has weekly quizzes."],
     "cascade_verbatim: only the user asked it",
     [U("Is it true that the course has a final exam worth 40 percent of the grade?")], **CV)
case("cae-cascade-system", K, "must_fail", "Shipping to Norway takes 12 working days.",
     ["Shipping within the EU takes 3 working days."],
     "cascade_verbatim: only the system message says it",
     [S("Shipping to Norway takes 12 working days."), U("How long is shipping to Norway?")], **CV)
case("cae-cascade-assistant", K, "must_fail", "The warranty is void if the seal is broken.",
     ["The warranty lasts 2 years."],
     "cascade_verbatim: only an earlier assistant turn says it",
     [U("What voids the warranty?"), A("The warranty is void if the seal is broken."), U("And how long is it?")], **CV)
# true cases
case("cae-true-sourced", K, "must_pass", "The Basic plan includes 50 GB of storage.",
     ["The Basic plan includes 50 GB of storage.", "All plans can be cancelled at any time."],
     "sources state it (system too)",
     [S("Internal note: the Basic plan includes 50 GB of storage."), U("What does the Basic plan include?")], **G)
case("cae-true-user-fact", K, "must_pass", "You are on the Basic plan.",
     ["All plans can be cancelled at any time."],
     "the user asserted a fact about themselves",
     [U("I am on the Basic plan. Can I cancel?")], **G)
case("cae-true-cascade", K, "must_pass", "The ferry crossing takes 40 minutes.",
     ["The ferry crossing takes 40 minutes."],
     "cascade_verbatim on a sourced sentence",
     [U("Could you confirm the ferry leaves at 6:15 from pier 3?")], **CV)
case("cae-true-assistant-and-source", K, "must_pass", "The museum café closes at 4 pm.",
     ["The museum café closes at 4 pm."],
     "an assistant turn said it, and so does the source",
     [U("Is there a café?"), A("Yes, the museum café closes at 4 pm."), U("Thanks")], **G)
case("cae-true-asked-sourced", K, "must_pass", "The bridge is closed for repairs until 30 June.",
     ["The bridge is closed for repairs until 30 June."],
     "the user asked, the source answers yes",
     [U("Is the bridge closed for repairs until 30 June?")], **CV)

# ----------------------------------------------------------------------------------------
# disclaimer_clause: claims and disclaims at once.
K = "disclaimer_clause"
L = {"script": "lacks"}
EIFFEL = ["The Eiffel Tower was finished in 1889. It is 330 metres tall."]
MUSEUM = ["The museum opens at 10 am.", "Entry costs 12 euros."]
case("dc-gold-although", K, "must_fail", "It was painted gold in 2024, although no source mentions this.", EIFFEL,
     "claim then disclaimer in one sentence", **L)
case("dc-no-document-but", K, "must_fail", "No document says so, but it closes at 6 pm.", MUSEUM,
     "disclaimer then claim", **L)
case("dc-documents-dont-cover", K, "must_fail", "The documents don't cover pricing; the premium tier costs $49 a month.",
     ["The premium tier adds priority support."], "disclaimer; claim after a semicolon", **L)
case("dc-couldnt-find-but", K, "must_fail", "I couldn't find this in the sources, but the battery lasts 12 hours.",
     ["The phone has a 6.1-inch screen."], "refusal form plus claim", **L)
case("dc-not-mentioned-colon", K, "must_fail", "Not mentioned in the passages: the CEO resigned in March.",
     ["The company reported record profits in 2023."], "disclaimer lead-in with a colon", **L)
case("dc-silent-yet", K, "must_fail", "The sources are silent on this, yet the merger closed in 2021.",
     ["The two banks announced talks in 2020."], "silent ... yet claim", **L)
case("dc-none-confirm-while", K, "must_fail", "While none of the documents confirm it, the bridge opened in 1932.",
     ["The bridge is 503 metres long."], "while none confirm it, claim", **L)
case("dc-paren", K, "must_fail", "The plant employs 400 people (this is not in the provided documents).",
     ["The plant makes bicycle frames."], "claim with a parenthetical disclaimer", **L)
case("dc-cant-verify", K, "must_fail", "Although I can't verify it from the documents, the drug was approved in 2019.",
     ["The drug is taken once a day."], "can't verify, claim", **L)
case("dc-german", K, "must_fail", "Kein Dokument erwähnt es, aber das Museum schließt um 18 Uhr.",
     ["Das Museum öffnet um 10 Uhr."], "German disclaimer plus claim", **L)
case("dc-required-tower", K, "must_fail", "No source says so, but the tower is 350 metres tall.", EIFFEL,
     "citations='required': disclaimer form must not exempt the claim (and it is contradicted)",
     options={"citations": "required"}, **L)
case("dc-required-deposit", K, "must_fail", "I could not find this in the documents, though the deposit is 500 euros.",
     ["Rent is due on the first of the month."], "citations='required', refusal plus claim",
     options={"citations": "required"}, **L)
case("dc-required-cited", K, "must_fail", "No document says so [1], but the ferry runs hourly.",
     ["The ferry crossing takes 40 minutes."], "citations='required', a citation on the disclaimer",
     options={"citations": "required"}, **L)
case("dc-cli-gold", K, "must_fail", "It was painted gold in 2024, although no source mentions this.", EIFFEL,
     "via `provenance check`: exit status must be non-zero", options={"cli": True}, **L)
case("dc-cli-closes", K, "must_fail", "No document says so, but it closes at 6 pm.", MUSEUM,
     "via `provenance check`", options={"cli": True}, **L)
case("dc-cli-required", K, "must_fail", "No source says so, but entry is free on Mondays.", MUSEUM,
     "via `provenance check --citations required`", options={"cli": True, "citations": "required"}, **L)
case("dc-no-info-except", K, "must_fail", "There is no information about this in the sources, except that the ferry runs hourly.",
     ["The ferry crossing takes 40 minutes."], "no information ... except claim", **L)
case("dc-which-it-does", K, "must_fail", "The documents do not mention that the hotel has a spa, which it does.",
     ["The hotel has 80 rooms."], "disclaimer with a trailing assertion", **L)
case("dc-price-which-is", K, "must_fail", "No source mentions the price, which is €20.",
     MUSEUM, "disclaimer with the claim in a relative clause (and contradicted: 12 euros)", **L)
case("dc-guard-exception", K, "must_fail", "None of the sources mention it, but parking is free.",
     MUSEUM, "through a real guardrails Guard", options={"via": "guard"}, **L)
# true cases
case("dc-true-could-not-find", K, "must_pass", "I could not find this in the documents.", MUSEUM,
     "a pure refusal", **L)
case("dc-true-do-not-say", K, "must_pass", "The documents do not say when the museum closes.", MUSEUM,
     "a true statement of what the sources lack", **L)
case("dc-true-none-price", K, "must_pass", "None of the sources mention the parking fee.", MUSEUM,
     "a true lack statement", **L)
case("dc-true-required", K, "must_pass", "No document gives the closing time.", MUSEUM,
     "citations='required': a refusal needs no citation (docs)", options={"citations": "required"}, **L)
case("dc-true-cli", K, "must_pass", "I could not find this in the documents.", MUSEUM,
     "via `provenance check`: exit 0", options={"cli": True}, **L)
case("dc-true-mixed-ok", K, "must_pass", "The museum opens at 10 am. The documents do not say when it closes.", MUSEUM,
     "a sourced sentence plus a true lack statement", **L)

# ----------------------------------------------------------------------------------------
# source_not_asserting: the only source sentence with the fact does not assert it.
K = "source_not_asserting"
SN = {"options": {"cascade_verbatim": True}}
case("sna-not-yet-approved", K, "must_fail", "The drug is approved by the FDA.",
     ["The drug is not yet approved by the FDA."], "negated in the source", **SN)
case("sna-not-yet-approved-2", K, "must_fail", "The drug is approved.",
     ["The drug is not yet approved."], "negated in the source (the example in the docs' words)", **SN)
case("sna-maybe-nobody", K, "must_fail", "The factory will close in May.",
     ["Maybe the factory will close in May, but nobody knows."], "maybe ... nobody knows", **SN)
case("sna-suppose", K, "must_fail", "The bridge collapsed in 1998.",
     ["Suppose the bridge collapsed in 1998. What would the city have done?"], "supposition", **SN)
case("sna-is-it-true", K, "must_fail", "The CEO sold her shares last week.",
     ["Is it true that the CEO sold her shares last week?"], "a question", **SN)
case("sna-myth", K, "must_fail", "Goldfish have a three-second memory.",
     ["Goldfish have a three-second memory. That is a myth."], "debunked in the next sentence", **SN)
case("sna-i-read", K, "must_fail", "The library will close in 2026.",
     ["I read that the library will close in 2026, but that is not true."], "I read X, but not true", **SN)
case("sna-false-that", K, "must_fail", "The company paid no taxes in 2022.",
     ["It is false that the company paid no taxes in 2022."], "It is false that X", **SN)
case("sna-critics-claim", K, "must_fail", "The dam leaks 2 million litres a day.",
     ["Critics claim the dam leaks 2 million litres a day."], "attributed claim", **SN)
case("sna-if-vote", K, "must_fail", "The park will be sold to developers.",
     ["If the vote passes, the park will be sold to developers."], "conditional", **SN)
case("sna-nobody-shown", K, "must_fail", "The supplement cures insomnia.",
     ["Nobody has shown that the supplement cures insomnia."], "nobody has shown", **SN)
case("sna-rumours-denied", K, "must_fail", "The band will reunite in 2025.",
     ["Rumours that the band will reunite in 2025 were denied by its manager."], "denied rumour", **SN)
case("sna-many-believe", K, "must_fail", "The Great Wall is visible from space with the naked eye.",
     ["Many believe the Great Wall is visible from space with the naked eye; it is not."], "belief, then denial", **SN)
case("sna-whether", K, "must_fail", "The museum will reopen in spring.",
     ["Whether the museum will reopen in spring is still undecided."], "whether ... undecided", **SN)
case("sna-withdrawn-policy", K, "must_fail", "Refunds are given within 90 days.",
     ["The old policy said refunds were given within 90 days; it was withdrawn in 2023."], "withdrawn past policy", **SN)
case("sna-german-question", K, "must_fail", "Das Hotel hat einen Pool.",
     ["Stimmt es, dass das Hotel einen Pool hat?"], "German question", **SN)
case("sna-minister-denied", K, "must_fail", "The tax will rise to 25 percent.",
     ["The minister denied that the tax will rise to 25 percent."], "denied", **SN)
case("sna-expected-didnt", K, "must_fail", "The shipment arrived by Friday.",
     ["It was expected that the shipment would arrive by Friday, but it did not."], "expected but did not", **SN)
case("sna-question-answered-no", K, "must_fail", "The warranty covers accidental damage.",
     ["Does the warranty cover accidental damage? It does not."], "question answered no", **SN)
case("sna-spanish-not-true", K, "must_fail", "El tren sale a las 8.",
     ["No es cierto que el tren sale a las 8."], "Spanish: it is not true that", **SN)
case("sna-some-say", K, "must_fail", "The lake is 300 metres deep.",
     ["Some say the lake is 300 metres deep, but surveys found 120 metres."], "some say X, but Y", **SN)
case("sna-hypothetical-would", K, "must_fail", "The new line would cut travel time to 20 minutes.",
     ["Supporters hope the new line would cut travel time to 20 minutes, but no study confirms it."], "hope, unconfirmed", **SN)
# true cases
case("sna-true-approved", K, "must_pass", "The drug was approved in 2021.",
     ["The drug was approved in 2021."], "plain assertion", **SN)
case("sna-true-factory", K, "must_pass", "The factory will close in May.",
     ["The factory will close in May, the owners announced."], "plain assertion with attribution after", **SN)
case("sna-true-goldfish", K, "must_pass", "Goldfish can remember things for months.",
     ["Goldfish can remember things for months."], "plain assertion", **SN)
case("sna-true-dam", K, "must_pass", "The dam leaks 2 million litres a day.",
     ["The dam leaks 2 million litres a day. Engineers are fixing it."], "plain assertion", **SN)
case("sna-true-bridge", K, "must_pass", "The bridge collapsed in 1998.",
     ["The bridge collapsed in 1998 after a flood."], "plain assertion, more detail in source", **SN)
case("sna-true-it-is-true", K, "must_pass", "The CEO sold her shares last week.",
     ["It is true that the CEO sold her shares last week."], "It is true that X", **SN)

# ----------------------------------------------------------------------------------------
# money_currency
K = "money_currency"
case("mc-usd-gbp", K, "must_fail", "The adapter costs £30.", ["The adapter costs $30."], "$ vs £")
case("mc-usd-eur-sign", K, "must_fail", "The adapter costs €30.", ["The adapter costs $30."], "$ vs €")
case("mc-usd-euros-word", K, "must_fail", "The adapter costs 30 euros.", ["The adapter costs $30."], "$ vs euros")
case("mc-USD-EUR-code", K, "must_fail", "The fee is EUR 30.", ["The fee is USD 30."], "ISO codes")
case("mc-usd-yen", K, "must_fail", "The adapter costs 30 yen.", ["The adapter costs $30."], "$ vs yen")
case("mc-US-C-dollar", K, "must_fail", "The book costs C$30.", ["The book costs US$30."], "US$ vs C$")
case("mc-JPY-CNY", K, "must_fail", "The lamp costs CNY 5,000.", ["The lamp costs JPY 5,000."], "JPY vs CNY")
case("mc-rupee-dollar", K, "must_fail", "The meal costs $500.", ["The meal costs ₹500."], "₹ vs $")
case("mc-gbp-eur-decimal", K, "must_fail", "The ticket is €12.50.", ["The ticket is £12.50."], "£ vs € with decimals")
case("mc-chf-eur", K, "must_fail", "The course fee is EUR 200.", ["The course fee is CHF 200."], "CHF vs EUR")
case("mc-dollars-pounds-words", K, "must_fail", "The ticket is 20 pounds.", ["The ticket is 20 dollars."], "words")
case("mc-zloty-euro", K, "must_fail", "The salary is 3,000 euros a month.", ["The salary is 3,000 zł a month."], "zł vs euros")
case("mc-aud-usd", K, "must_fail", "The tour costs US$50.", ["The tour costs A$50."], "A$ vs US$")
case("mc-sek-nok", K, "must_fail", "The deposit is 1,000 Norwegian kroner.", ["The deposit is 1,000 Swedish kronor."], "SEK vs NOK in words")
case("mc-user-restated", K, "must_fail", "You were charged €30.", ["Refunds take five working days."],
     "user said $30, answer says €30 (restatement)", messages=[U("I was charged $30 twice. Can I get a refund?")])
case("mc-euros-dollar-reverse", K, "must_fail", "The fine is $30.", ["The fine is 30 euros."], "euros vs $")
case("mc-million", K, "must_fail", "The grant is worth $5 million.", ["The grant is worth €5 million."], "€ vs $ with a scale word")
case("mc-arabic", K, "must_fail", "السعر 30 يورو.", ["السعر 30 دولارًا."], "Arabic: dollars vs euros")
case("mc-cascade-verbatim", K, "must_fail", "The monthly plan costs 30 euros per user.",
     ["The monthly plan costs $30 per user."], "cascade_verbatim on: a near-verbatim sentence with another currency",
     options={"cascade_verbatim": True})
case("mc-pence-cents", K, "must_fail", "A stamp costs 85 cents.", ["A stamp costs 85 pence."], "pence vs cents")
case("mc-user-asserts-other-currency", K, "must_fail", "The membership fee is 50 euros.",
     ["The membership fee is $50."], "user asserted euros; the source says dollars",
     messages=[U("The membership fee is 50 euros. Can I pay monthly?")])
# true cases
case("mc-true-us-dollars", K, "must_pass", "The adapter costs 30 US dollars.", ["The adapter costs $30."], "$30 = 30 US dollars")
case("mc-true-usd-code", K, "must_pass", "The adapter costs USD 30.", ["The adapter costs $30."], "$30 = USD 30")
case("mc-true-us-sign", K, "must_pass", "The adapter costs US$30.", ["The adapter costs $30."], "$30 = US$30")
case("mc-true-euros", K, "must_pass", "Entry costs 5 euros.", ["Entry costs €5."], "€5 = 5 euros")
case("mc-true-eur-code", K, "must_pass", "Entry costs EUR 5.", ["Entry costs €5."], "€5 = EUR 5")
case("mc-true-gbp", K, "must_pass", "The ticket is GBP 12.50.", ["The ticket is £12.50."], "£12.50 = GBP 12.50")
case("mc-true-sign-from-word", K, "must_pass", "The fine is €30.", ["The fine is 30 euros."], "30 euros = €30")

ids = [c["id"] for c in CASES]
assert len(ids) == len(set(ids)), "duplicate ids"
out = Path(__file__).with_name("cases.jsonl")
out.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CASES), encoding="utf-8")
from collections import Counter
print(len(CASES), Counter((c["class"], c["expect"]) for c in CASES))
