/// The symbol tables behind `LaTeX.decode`.
enum LaTeXTables {
    /// A combining mark and the character shown when the accent has nothing to sit on.
    struct Accent {
        let combining: Unicode.Scalar
        let spacing: String
    }

    /// Accents written with a symbol: `\"o`, `\'e`, ...
    static let accentMarks: [UInt8: Accent] = [
        UInt8(ascii: "\""): Accent(combining: "\u{0308}", spacing: "¨"),
        UInt8(ascii: "'"): Accent(combining: "\u{0301}", spacing: "´"),
        UInt8(ascii: "`"): Accent(combining: "\u{0300}", spacing: "`"),
        UInt8(ascii: "^"): Accent(combining: "\u{0302}", spacing: "^"),
        UInt8(ascii: "~"): Accent(combining: "\u{0303}", spacing: "~"),
        UInt8(ascii: "="): Accent(combining: "\u{0304}", spacing: "¯"),
        UInt8(ascii: "."): Accent(combining: "\u{0307}", spacing: "˙"),
    ]

    /// Accents written with a letter: `\v{s}`, `\c c`, ...
    static let letterAccentMarks: [String: Accent] = [
        "u": Accent(combining: "\u{0306}", spacing: "˘"),
        "v": Accent(combining: "\u{030C}", spacing: "ˇ"),
        "H": Accent(combining: "\u{030B}", spacing: "˝"),
        "c": Accent(combining: "\u{0327}", spacing: "¸"),
        "k": Accent(combining: "\u{0328}", spacing: "˛"),
        "r": Accent(combining: "\u{030A}", spacing: "˚"),
        "d": Accent(combining: "\u{0323}", spacing: "."),
        "b": Accent(combining: "\u{0331}", spacing: "_"),
        "t": Accent(combining: "\u{0361}", spacing: "͡"),
    ]

    /// Control words that stand for text in any mode.
    static let symbols: [String: String] = [
        "ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ",
        "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð",
        "th": "þ", "TH": "Þ", "ng": "ŋ", "NG": "Ŋ", "dj": "đ", "DJ": "Đ",
        "textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…", "textellipsis": "…",
        "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“", "textquotedblright": "”",
        "quotedblbase": "„", "quotesinglbase": "‚", "guillemotleft": "«", "guillemotright": "»",
        "guillemetleft": "«", "guillemetright": "»", "guilsinglleft": "‹", "guilsinglright": "›",
        "S": "§", "P": "¶", "copyright": "©", "textcopyright": "©", "textregistered": "®",
        "texttrademark": "™", "pounds": "£", "textsterling": "£", "euro": "€", "texteuro": "€",
        "textdegree": "°", "textbullet": "•", "dag": "†", "ddag": "‡", "textdagger": "†",
        "textdaggerdbl": "‡", "textbackslash": "\\", "textasciitilde": "~", "textunderscore": "_",
        "textbar": "|", "textless": "<", "textgreater": ">", "textasciicircum": "^",
        "textexclamdown": "¡", "textquestiondown": "¿", "textsection": "§", "textparagraph": "¶",
        "textperiodcentered": "·", "textonehalf": "½", "textonequarter": "¼", "textthreequarters": "¾",
        "texttimes": "×", "textdiv": "÷", "textmu": "µ", "textcent": "¢", "textyen": "¥",
        "TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "BibTeX": "BibTeX", "XeTeX": "XeTeX",
        "LuaTeX": "LuaTeX", "ConTeXt": "ConTeXt", "AmS": "AMS", "AMS": "AMS", "MF": "METAFONT",
        "MP": "METAPOST", "slash": "/", "space": " ", "quad": " ", "qquad": " ", "enspace": " ",
        "thinspace": " ", "nobreakspace": " ", "textvisiblespace": "␣", "textnumero": "№",
        "checkmark": "✓", "ordfeminine": "ª", "ordmasculine": "º",
    ]

    /// Control words that stand for a symbol (meant for math mode; also accepted outside it).
    static let mathSymbols: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
        "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
        "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
        "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
        "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
        "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
        "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
        "infty": "∞", "pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "·", "cdots": "⋯",
        "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
        "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "rightarrow": "→",
        "to": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒", "Leftarrow": "⇐",
        "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⟺", "implies": "⟹", "mapsto": "↦",
        "longrightarrow": "⟶", "uparrow": "↑", "downarrow": "↓",
        "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
        "supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖", "emptyset": "∅", "varnothing": "∅",
        "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬", "wedge": "∧", "land": "∧",
        "vee": "∨", "lor": "∨", "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "int": "∫",
        "oint": "∮", "circ": "∘", "star": "⋆", "ast": "∗", "bullet": "•", "oplus": "⊕",
        "otimes": "⊗", "odot": "⊙", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
        "lfloor": "⌊", "rfloor": "⌋", "aleph": "ℵ", "hbar": "ℏ", "ell": "ℓ", "wp": "℘",
        "Re": "ℜ", "Im": "ℑ", "prime": "′", "dagger": "†", "ddagger": "‡", "bot": "⊥", "top": "⊤",
        "perp": "⊥", "vdash": "⊢", "models": "⊨", "mid": "∣", "parallel": "∥", "ll": "≪",
        "gg": "≫", "angle": "∠", "triangle": "△", "Box": "□", "Diamond": "◇", "colon": ":",
        "vert": "|", "Vert": "‖", "lbrace": "{", "rbrace": "}", "backslash": "\\", "sharp": "♯",
        "flat": "♭", "natural": "♮", "surd": "√", "therefore": "∴", "because": "∵",
        "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
        "max": "max", "min": "min", "lim": "lim", "sup": "sup", "inf": "inf", "det": "det",
        "dim": "dim", "ker": "ker", "gcd": "gcd", "deg": "deg", "arg": "arg", "Pr": "Pr",
        "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "", "Bigl": "", "Bigr": "",
        "displaystyle": "", "textstyle": "", "limits": "", "nolimits": "",
    ]

    /// Commands whose argument is shown as it is: `\emph{x}` is `x`.
    static let transparentCommands: Set<String> = [
        "emph", "textit", "textbf", "textsc", "texttt", "textrm", "textsf", "textup", "textmd",
        "textsl", "textnormal", "mbox", "hbox", "fbox", "url", "nolinkurl", "path", "uppercase",
        "lowercase", "MakeUppercase", "MakeLowercase", "NoCaseChange", "textsuperscript",
        "textsubscript", "underline", "uline", "mathrm", "mathit", "mathbf", "mathsf", "mathtt",
        "mathcal", "mathfrak", "mathscr", "boldsymbol", "bm", "operatorname", "text", "textup",
        "ensuremath", "foreignlanguage", "hyphenation", "detokenize", "protect", "relax",
    ]

    /// Declarations that change only the style of what follows: `{\em x}` is `x`.
    static let declarations: Set<String> = [
        "em", "it", "bf", "sc", "rm", "tt", "sf", "sl", "itshape", "bfseries", "scshape",
        "upshape", "mdseries", "rmfamily", "sffamily", "ttfamily", "normalfont", "small",
        "footnotesize", "scriptsize", "tiny", "large", "Large", "LARGE", "huge", "Huge",
        "normalsize", "selectlanguage", "null", "unskip", "ignorespaces", "xspace", "hfill",
        "hfil", "vfill", "newblock", "break", "linebreak", "allowbreak", "nobreak", "noindent",
        "par", "smallskip", "medskip", "bigskip", "sloppy", "frenchspacing",
    ]

    static let superscripts: [Unicode.Scalar: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸",
        "9": "⁹", "+": "⁺", "-": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "n": "ⁿ", "i": "ⁱ", "*": "*",
        "′": "′",
    ]

    static let subscripts: [Unicode.Scalar: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈",
        "9": "₉", "+": "₊", "-": "₋", "=": "₌", "(": "₍", ")": "₎", "i": "ᵢ", "j": "ⱼ", "n": "ₙ",
        "k": "ₖ", "m": "ₘ", "x": "ₓ",
    ]

    static let doubleStruck: [String: String] = [
        "R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "P": "ℙ", "F": "𝔽", "E": "𝔼",
    ]
}
