using System;

namespace Waymesh.Editor
{
    /// <summary>An export that cannot be written, with a message saying why and what to do.</summary>
    public sealed class ExportException : Exception
    {
        public ExportException(string message) : base(message) { }
    }
}
