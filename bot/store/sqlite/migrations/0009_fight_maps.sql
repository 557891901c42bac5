-- which of the server's maps a fight is on (its id and when it was made, as an id may be reused
-- once its map is deleted): a name may pass to another map meanwhile. NULL: a built-in map, or
-- a fight started before this was kept (its name is all there is).
ALTER TABLE combats ADD COLUMN map_id INTEGER;
ALTER TABLE combats ADD COLUMN map_created_at TEXT;
