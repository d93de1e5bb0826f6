import BibModel
import BibreadValues

/// The apps of the "open with" menu, reading aloud and the clipboard.
public enum HandlerEffect: Sendable, Equatable {
    /// Work out the "open with" menu for these values (which apps are installed).
    case prepareOpenWith(intention: Intention?, values: HandlerValues)
    /// Run an app of the menu (`executable` as the menu found it).
    case runHandler(HandlerEntry, executable: String?, values: HandlerValues)
    /// Stop the app reading aloud.
    case stopListening
    /// Put text on the clipboard: the terminal's (OSC 52), and the desktop's when there is one.
    case copyToClipboard(text: String, what: String)
}
