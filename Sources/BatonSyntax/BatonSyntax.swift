// BatonSyntax: placeholder until its issue lands.
