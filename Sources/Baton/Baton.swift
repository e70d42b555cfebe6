// Baton: placeholder until its issue lands.
