-- The table in its own language: the language a server's GM chose for its channels
-- (`/settings language`; a catalogue's name such as `de`; NULL: the server's own locale).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
