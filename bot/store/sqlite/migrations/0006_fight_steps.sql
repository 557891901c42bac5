-- a fight step is one transaction with everything it changes. `fighting` says which active
-- fight each character is in (at most one); `next_deadline` and `shown_version` are what start-
-- up needs without reading whole states (every fight is shown again once, with buttons of the
-- new kind); a log entry keeps a patch back to the state before it, and is written by a trigger
-- from the step's own UPDATE.
ALTER TABLE combats ADD COLUMN next_deadline REAL;
ALTER TABLE combats ADD COLUMN shown_version INTEGER NOT NULL DEFAULT -1;
UPDATE combats SET next_deadline = (
    SELECT MIN(json_extract(p.value, '$.deadline'))
    FROM json_each(combats.state, '$.prompts') AS p
) WHERE active = 1;
CREATE TABLE fighting (
    character_id INTEGER PRIMARY KEY,
    combat_id INTEGER NOT NULL REFERENCES combats (id)
);
CREATE INDEX fighting_by_combat ON fighting (combat_id);
INSERT OR IGNORE INTO fighting (character_id, combat_id)
    SELECT json_extract(f.value, '$.character_id'), c.id
    FROM combats AS c, json_each(c.state, '$.fighters') AS f
    WHERE c.active = 1 AND json_extract(f.value, '$.character_id') IS NOT NULL
    ORDER BY c.id;
ALTER TABLE combat_log ADD COLUMN undo_patch BLOB;
-- A step's log entry rides on the step's UPDATE of its fight (`step_*`, the trigger
-- below), so the usual step is one statement: one round trip, one commit.
ALTER TABLE combats ADD COLUMN step_user INTEGER;
ALTER TABLE combats ADD COLUMN step_command TEXT;
ALTER TABLE combats ADD COLUMN step_events TEXT;
ALTER TABLE combats ADD COLUMN step_patch BLOB;
CREATE TRIGGER combats_log_each_step AFTER UPDATE OF version ON combats
WHEN NEW.step_command IS NOT NULL BEGIN
    INSERT INTO combat_log (combat_id, user_id, command, events, state_before, undo_patch)
    VALUES (NEW.id, NEW.step_user, NEW.step_command, NEW.step_events, '', NEW.step_patch);
END;
