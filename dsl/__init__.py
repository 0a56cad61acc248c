"""The effect DSL: grammar, parser facade, pretty-printer, checker and compiler."""
