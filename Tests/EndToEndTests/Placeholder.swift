// The end-to-end tests of the full-screen reader live in this target (tmux drives the real binary).
