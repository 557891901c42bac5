-- Reminders that ping only who is late: the deadlines of each fight's questions whose late
-- players were reminded (a JSON list; each question is reminded once, across restarts), and
-- each player's choice of where to be reminded (`dm`: by direct message; kept per player).
ALTER TABLE combats ADD COLUMN reminded TEXT NOT NULL DEFAULT '[]';
CREATE TABLE player_settings (
    user_id INTEGER PRIMARY KEY,
    reminders TEXT NOT NULL DEFAULT 'channel'
);
