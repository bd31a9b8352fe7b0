"""W910-W923: the deliverables of the wave-3 request (``sylla lint DIR --trials json/``).
Their findings come from ``linter/deliveries.py``; these classes carry code, name, severity
and documentation."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._trials import DeliveryRule, trials_doc

HEADER = "problem,run,order,trial,input,correct,predicted,accuracy,program,cpu,count,nlp,nll"
ROW = '"c046",1,1,2,"[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0))",12.5,4001,6.5775,0.0704'


class DeliveryMissingFile(DeliveryRule):
    code, name, severity = "W910", "delivery-missing-file", Severity.ERROR
    __doc__ = trials_doc(
        "A deliverable is missing: predictions.csv, bests.csv or samples.csv.",
        "The folder holds the four files the request asks for (description.md is W923).",
        "Each file answers one question of the study: final performance, sensitivity to search, movement through search space.",
        "delivery/bests.csv\ndelivery/description.md", "delivery/predictions.csv\ndelivery/bests.csv\ndelivery/samples.csv\ndelivery/description.md",
        "Write the missing file. Without predictions.csv, `sylla metrics` derives predictions from bests.csv.", lang="text")


class DeliveryColumns(DeliveryRule):
    code, name, severity = "W911", "delivery-columns", Severity.ERROR
    __doc__ = trials_doc(
        "A delivery CSV lacks its header, lacks columns, or has them in another order.",
        f"The first line is `{HEADER}`. A `length` column after `count` is accepted (the request's own "
        "example header has it). A header-less file is read by its width (13, 14 or the known 7-column bests shape), or by "
        "its values when exactly one choice of the request's columns, in its order, fits them (the real `samples0.csv`: "
        "`c046,\"(lambda ...)\"` is problem,program), said once; when none or several fit, it is not read (an error).",
        "Analysis scripts read columns by name; a missing column is found only when the study is run, after the CPU-hours are spent.",
        ROW, f"{HEADER}\n{ROW}", "Write the header as the first line, in the request's order.", lang="csv")


class DeliveryQuoting(DeliveryRule):
    code, name, severity = "W912", "delivery-quoting", Severity.WARNING
    __doc__ = trials_doc(
        "A delivery CSV does not quote problem, input, correct, predicted and program with ASCII double quotes.",
        "The request marks these columns as quoted strings; typographic quotes (”) are read as `\"` and said once per file. "
        "The finding names the string columns left bare and the number columns quoted, not every column.",
        "Lists hold commas: unquoted, a row splits into the wrong number of fields; typographic quotes become part of the value.",
        '”c046”,1,1,2,[3,0],...', '"c046",1,1,2,"[3,0]",...', "Write the CSV with a CSV library (quote the string columns).", lang="csv")


class DeliveryNumbering(DeliveryRule):
    code, name, severity = "W913", "delivery-numbering", Severity.WARNING
    __doc__ = trials_doc(
        "run, order or trial is numbered from 0, or its numbering cannot be told.",
        "`run`, `order` and `trial` are 1-based (runs 1..5, orderings 1..5, trials 1..11). A column is read as numbered "
        "from 0, shifted and said once, when some row allows only that (a 0; with the trial files, an input that is its "
        "test example only then) and no row allows only the request's numbering (a 5, 5 or 11). With rows of both kinds "
        "the numbering cannot be told: an error that names both, and the column is read as written and not checked "
        "against the trial files. Never decided by the lowest and highest values, which one stray row swings.",
        "Trial 0 would be read as a trial before the first; curves would be shifted by one trial, and a file read on a "
        "guessed numbering moves every row.",
        '"c046",1,1,0,...', '"c046",1,1,1,...', "Add 1 when writing.", lang="csv")


class DeliveryCompleteness(DeliveryRule):
    code, name, severity = "W914", "delivery-completeness", Severity.ERROR
    __doc__ = trials_doc(
        "predictions.csv does not hold every (problem, run, order, trial) exactly once.",
        "100 problems × 5 runs × 5 orderings × 11 trials = 27,500 rows (the problems of the trial folder given with "
        "--trials), none missing, none repeated, none extra. A single run is said once and the rest checked for run 1.",
        "A missing row is a hole in a learning curve; a repeated one counts a trial twice.",
        "27,499 rows; (c046, run 2, order 3, trial 11) missing", "27,500 rows, one per (problem, run, order, trial)",
        "Re-run the missing trials; drop duplicates.", lang="text")


class DeliveryBadRow(DeliveryRule):
    code, name, severity = "W915", "delivery-bad-row", Severity.ERROR
    __doc__ = trials_doc(
        "Rows that cannot be used: wrong field count, a number that is not a finite one, a problem that is no `c???` "
        "label, a run, order or trial outside the file's numbering, a program that does not parse (or is nested more "
        "than 100 deep, or longer than 20,000 characters), is not [int] → [int], fails on its input, or lies outside the prior.",
        "Every row parses, and its program is a well-typed DSL program. Counted per file with row numbers; the other rows "
        "are still checked. A finding about a program stands at the column of the row where the program goes wrong.",
        "A bad row silently becoming a number (or a zero) would bias every curve.",
        '"c046",1,1,2,"[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0)",...', ROW,
        "Fix the writer; convert programs from other representations into the DSL.", lang="csv")


class DeliveryTestExample(DeliveryRule):
    code, name, severity = "W916", "delivery-test-example", Severity.ERROR
    __doc__ = trials_doc(
        "A row's input and correct are not that trial's test example.",
        "Trial N of ordering K of problem P tests on example N of `cPPP_K.json`: `input` and `correct` are its `i` and `o`.",
        "A row on another example means the model ran another ordering (or shuffled it), which the request forbids.",
        '"c046",1,1,2,"[9]","[7,9]",...', '"c046",1,1,2,"[3,0]","[7,3,0]",...', "Run the orderings as given.", lang="csv")


class DeliveryAccuracy(DeliveryRule):
    code, name, severity = "W917", "delivery-accuracy", Severity.ERROR
    __doc__ = trials_doc(
        "accuracy is not 1 exactly when predicted equals correct.",
        "`accuracy` is `int(predicted == correct)` (lists compared without spaces).",
        "Accuracy is the learning curve itself.",
        '..."[7,3,0]","[7,3,0]",0,...', '..."[7,3,0]","[7,3,0]",1,...', "Compute accuracy from the two columns.", lang="csv")


class DeliveryPredicted(DeliveryRule):
    code, name, severity = "W918", "delivery-predicted", Severity.ERROR
    __doc__ = trials_doc(
        "predicted is not the row's program run on its input.",
        "Running `program` on `input` with the DSL's definitions gives `predicted`.",
        "A prediction that the program does not make means program and prediction come from different hypotheses.",
        '..."[3,0]","[7,3,0]","[3,0]",0,"(lambda (cons 7 $0))"', '..."[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0))"',
        "Write the prediction of the program you report.", lang="csv")


class DeliveryLikelihood(DeliveryRule):
    code, name, severity = "W919", "delivery-likelihood", Severity.ERROR
    __doc__ = trials_doc(
        "nll is not the request's negative log likelihood on trials 1..N-1.",
        "nll = −Σ over the training examples (1..N-1) of ln α if the program maps i to o, else ln(1 − α), α = exp(−0.07043928). "
        "Values written to 3 decimals match.",
        "The request asks for this likelihood so that models can be compared on it.",
        '"c046",1,1,3,...,"(lambda (cons 7 $0))",...,6.5775,0', '"c046",1,1,3,...,"(lambda (cons 7 $0))",...,6.5775,0.1409',
        "Compute the likelihood on the trial's training examples only.", lang="csv")


class DeliveryPrior(DeliveryRule):
    code, name, severity = "W920", "delivery-prior", Severity.ERROR
    __doc__ = trials_doc(
        "nlp is not the request's negative log prior of the program.",
        "nlp follows the generator of docs/trials.md: weights 1.0 for symbols with arguments and 10.0 for terminals "
        "among the type-fitting choices, lambdas free; constants limited to the problem's range.",
        "The request asks for this prior so that models can be compared on it.",
        '...,"(lambda $0)",...,0.5,...', '...,"(lambda $0)",...,0.9163,...', "Compute the prior as docs/trials.md describes.", lang="csv")


class DeliveryBestsOrder(DeliveryRule):
    code, name, severity = "W921", "delivery-bests-order", Severity.ERROR
    __doc__ = trials_doc(
        "Within a trial, best-so-far rows do not increase count and cpu, or do not improve.",
        "In bests.csv, consecutive rows of one (problem, run, order, trial) have increasing count, non-decreasing cpu "
        "and (when nlp and nll are given) a smaller nlp + nll.",
        "The search-sensitivity curve reads accuracy at CPU time t from these rows: out of order, it is wrong.",
        '"c046",1,1,2,...,12.5,4001,...\n"c046",1,1,2,...,3.1,200,...', '"c046",1,1,2,...,3.1,200,...\n"c046",1,1,2,...,12.5,4001,...',
        "Write best-so-far programs in the order search found them.", lang="csv")


class DeliverySamples(DeliveryRule):
    code, name, severity = "W922", "delivery-samples", Severity.WARNING
    __doc__ = trials_doc(
        "samples.csv does not hold 10,000 rows, or is split into several files.",
        "One samples.csv with 10,000 programs sampled uniformly (reservoir sampling). Split header-less "
        "samples0.csv, samples1.csv, ... are read together and said once.",
        "The samples show how the model moves through search space; fewer rows are a different sample size.",
        "samples0.csv (5,000 rows, no header)\nsamples1.csv (5,000 rows, no header)", f"samples.csv: {HEADER} + 10,000 rows",
        "Keep a reservoir of 10,000 across all runs.", lang="text")


class DeliveryDescription(DeliveryRule):
    code, name, severity = "W923", "delivery-description", Severity.WARNING
    __doc__ = trials_doc(
        "description.md is missing or does not have the two paragraphs the request asks for.",
        "Two prose paragraphs (headings aside): how the model works, and the simulation-specific details.",
        "Readers of the comparison need to know what each model is and what it was given.",
        "# Model\n\nIt searches.", "# Model\n\nHow it works, with citations.\n\nParameters, offline training, background knowledge.",
        "Write the two paragraphs.", lang="markdown")


RULES = (DeliveryMissingFile, DeliveryColumns, DeliveryQuoting, DeliveryNumbering, DeliveryCompleteness, DeliveryBadRow,
         DeliveryTestExample, DeliveryAccuracy, DeliveryPredicted, DeliveryLikelihood, DeliveryPrior, DeliveryBestsOrder,
         DeliverySamples, DeliveryDescription)
