-- A refused direct message is said once: whether the player was told that Discord refused
-- their reminder by direct message (cleared when Discord takes one again, or when they choose
-- where to be reminded anew).
ALTER TABLE player_settings ADD COLUMN dm_refused BOOLEAN NOT NULL DEFAULT FALSE;
