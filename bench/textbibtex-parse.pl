#!/usr/bin/perl
# Parse a BibTeX file with Text::BibTeX (C btparse) and touch everything bibread's
# `list --json` has to produce: each entry's type, key and every field value
# (btparse has already expanded @string macros and joined `#` concatenations).
# Used by bench/parse-bench.sh.
#
#   perl bench/textbibtex-parse.pl FILE.bib      # prints one line of counts
#
# btparse reports syntax errors on stderr and goes on; a broken entry comes back
# with parse_ok false and is counted as failed, not fatal. Strings are handled
# as bytes (Text::BibTeX's default and fastest mode).
#
# btparse can also *stop* early: after some errors (e.g. a bare `@Comment text`
# line) its lexer is left in a bad state and Entry->new returns false on every
# call although the file is not at its end. Unhandled, Text::BibTeX silently
# drops the rest of the file (17% of the bench corpus). So when that happens we
# reset the parser (Entry::parse with no filehandle) and carry on from where the
# filehandle stands; `restarts` counts how often that was needed.
use strict;
use warnings;
use Text::BibTeX;

my $path = shift @ARGV or die "usage: $0 FILE.bib\n";
my $bib = Text::BibTeX::File->new($path) or die "$0: cannot open $path: $!\n";
my $fh = $bib->{handle};

my ($entries, $strings, $other, $failed, $fields, $bytes) = (0) x 6;
my ($restarts, $last_stop) = (0, -1);
while (1) {
    my $entry = Text::BibTeX::Entry->new($bib);
    if (!$entry) {
        last if eof($fh);                        # the normal end
        my $pos = tell($fh);
        if ($pos == $last_stop) {                # no progress since the last reset:
            defined(readline($fh)) or last;      # skip the rest of this line
            $pos = tell($fh);
        }
        $last_stop = $pos;
        $restarts++;
        Text::BibTeX::Entry->new->parse($path, undef);   # reset btparse's lexer
        seek($fh, $pos, 0);
        next;
    }
    if (!$entry->parse_ok) { $failed++; next; }
    my $meta = $entry->metatype;
    if ($meta == BTE_REGULAR) {
        $entries++;
        my $type = $entry->type;
        my $key  = $entry->key;
        $bytes += length($type) + (defined $key ? length($key) : 0);
        for my $f ($entry->fieldlist) {
            my $v = $entry->get($f);
            $fields++;
            $bytes += length($f) + (defined $v ? length($v) : 0);
        }
    } elsif ($meta == BTE_MACRODEF) {
        $strings++;    # @string: btparse has defined the macro while parsing
    } else {
        $other++;      # @preamble, @comment
        my $v = $entry->value;
        $bytes += length($v) if defined $v;
    }
}
$bib->close;
print "entries=$entries strings=$strings other=$other failed=$failed fields=$fields bytes=$bytes restarts=$restarts\n";
