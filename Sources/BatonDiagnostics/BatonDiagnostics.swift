// BatonDiagnostics: placeholder until its issue lands.
