/*  lifearena's driver for War of Life strategies written in Prolog.

    Run as:  swipl driver.pl -- STRATEGY_FILE PREDICATE

    It loads the board predicates (war_of_life.pl, next to this file) into the user module,
    consults STRATEGY_FILE, then speaks lifearena's JSON-lines bot protocol (docs/bots.md):
    for every "turn" message it calls PREDICATE(Colour, Board, NewBoardState, Move) once
    and answers {"move": "[R1,C1,R2,C2]", "board": "<NewBoardState>"}. The Python side
    (lifearena.agents.prolog) checks the move's legality and that NewBoardState is the board
    after the move.

    Lines it writes besides moves:
      {"ready": "PREDICATE/4"}                   once, after loading, before any turn
      {"error": Text, "kind": Kind}              at load time (kind load) or instead of a move:
                                                 kind failed, exception or malformed
    Whatever the strategy prints goes to standard error, and it reads an empty input:
    standard output and input are the protocol's.
*/

:- use_module(library(http/json)).
:- use_module(library(readutil)).

%   The board predicates are inherited by the user module rather than imported into it, so
%   a strategy file that defines its own predicate of the same name (a helper of its own, or
%   the course program's version) silently uses its own.
:- use_module(war_of_life, []).
:- set_module(war_of_life:base(system)).
:- add_import_module(user, war_of_life, end).

:- initialization(main, main).

main :-
    current_prolog_flag(argv, Argv),
    (   append(_, [File, PredText], Argv)
    ->  true
    ;   answer(_{error: "usage: swipl driver.pl -- STRATEGY_FILE PREDICATE", kind: "load"}),
        halt(2)
    ),
    protocol_streams,
    atom_string(Pred, PredText),
    load_strategy(File, Pred),
    format(atom(Name), "~w/4", [Pred]),
    answer(_{ready: Name}),
    serve(Pred, none).

%   The protocol's answers go to the original standard output (alias protocol_out) and its
%   messages come from the original standard input (protocol_in); the user_output alias and
%   the current output become standard error, and user_input an empty stream, so a
%   strategy's format/2, print/1, draw_board/1 or read/1 cannot corrupt the protocol.
protocol_streams :-
    stream_property(Out, alias(user_output)),
    set_stream(Out, alias(protocol_out)),
    set_stream(Out, encoding(utf8)),
    set_stream(user_error, alias(user_output)),
    set_output(user_error),
    stream_property(In, alias(user_input)),
    set_stream(In, alias(protocol_in)),
    open_string("", Empty),
    set_stream(Empty, alias(user_input)),
    set_input(Empty).

load_strategy(File, Pred) :-
    (   exists_file(File)
    ->  true
    ;   fail_load("strategy file ~w not found", [File])
    ),
    catch(user:consult(File), E,
          ( message_text(E, T), fail_load("cannot load ~w: ~w", [File, T]) )),
    (   current_predicate(user:Pred/4)
    ->  true
    ;   fail_load("~w does not define ~w/4; expected ~w(+PlayerColour, +CurrentBoardState, \c
                   -NewBoardState, -Move)", [File, Pred, Pred])
    ).

fail_load(Format, Args) :-
    format(string(Text), Format, Args),
    answer(_{error: Text, kind: "load"}),
    halt(1).

serve(Pred, Colour) :-
    read_line_to_string(protocol_in, Line),
    (   Line == end_of_file
    ->  halt(0)
    ;   catch(atom_json_dict(Line, Message, []), _, Message = _{type: "garbage"}),
        handle(Message, Pred, Colour, Next),
        serve(Pred, Next)
    ).

handle(Message, _, _, Colour) :-
    Message.get(type) == "start",
    !,
    atom_string(Colour, Message.symbol).
handle(Message, Pred, Colour0, Colour0) :-
    Message.get(type) == "turn",
    !,
    (   Colour0 == none
    ->  nth0(Message.seat, [b, r], Colour)
    ;   Colour = Colour0
    ),
    term_string(Board, Message.position),
    play_turn(Pred, Colour, Board, Answer),
    answer(Answer).
handle(_, _, Colour, Colour).           % "end" and anything unknown: nothing to answer

play_turn(Pred, Colour, Board, Answer) :-
    format(string(Call), "~w(~w, ~w, NewBoardState, Move)", [Pred, Colour, Board]),
    (   catch(call(user:Pred, Colour, Board, NewBoard, Move), E, true)
    ->  (   var(E)
        ->  move_answer(Call, Move, NewBoard, Answer)
        ;   message_text(E, Text),
            format(string(Error), "~s threw: ~w", [Call, Text]),
            Answer = _{error: Error, kind: "exception"}
        )
    ;   format(string(Error), "~s failed", [Call]),
        Answer = _{error: Error, kind: "failed"}
    ).

move_answer(Call, Move, NewBoard, Answer) :-
    (   is_list(Move), length(Move, 4), maplist(integer, Move)
    ->  format(string(MoveText), "~w", [Move]),
        write_term_string(NewBoard, BoardText),
        Answer = _{move: MoveText, board: BoardText}
    ;   write_term_string(Move, Shown),
        format(string(Error), "~s gave Move = ~w; expected a list [R1,C1,R2,C2] of 4 integers",
               [Call, Shown]),
        Answer = _{error: Error, kind: "malformed"}
    ).

write_term_string(Term, Text) :-
    with_output_to(string(Text),
                   write_term(Term, [max_depth(200), quoted(true), portray(false)])).

message_text(E, Text) :-
    (   catch(message_to_codes(E, Codes), _, fail)
    ->  string_codes(Text0, Codes)
    ;   write_term_string(E, Text0)
    ),
    normalize_space(string(Text), Text0).

message_to_codes(E, Codes) :-
    '$messages':translate_message(E, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

answer(Dict) :-
    with_output_to(string(Text), json_write_dict(current_output, Dict, [width(0)])),
    format(protocol_out, "~s~n", [Text]),
    flush_output(protocol_out).
